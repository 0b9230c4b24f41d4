package dev.muster.core.framework;

import dev.muster.core.model.Pod;
import dev.muster.core.model.PodRef;
import dev.muster.core.testing.PodCopies;
import org.junit.jupiter.api.Test;

import java.lang.reflect.RecordComponent;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static dev.muster.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * How the runtime derives the pod fields a signature compares from what the plugins declare they read
 * ({@link Plugin#podFields}, {@link SignPlugin#podKeyFields}), and how {@link PodFields} compares pods by them.
 */
class SignedPodFieldsTest {

    /** A Filter that reads what it is told, and keys what it is told (a SignPlugin answering node-local). */
    private record Reader(String name, Set<PodField> podFields, Set<PodField> podKeyFields)
            implements FilterPlugin, SignPlugin {
        Reader(String name, Set<PodField> reads) {
            this(name, reads, Set.of());
        }

        @Override
        public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
            return Status.SUCCESS;
        }

        @Override
        public boolean nodeLocal(PodInfo pod, ClusterView cluster) {
            return true;
        }
    }

    /** A Filter that declares nothing. */
    private static final class Undeclared implements FilterPlugin {
        @Override
        public String name() {
            return "Undeclared";
        }

        @Override
        public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
            return Status.SUCCESS;
        }
    }

    private static Set<PodField> signed(Plugin... plugins) {
        Profile.Builder b = Profile.builder();
        for (Plugin p : plugins) {
            b.add(p);
        }
        return new FrameworkRuntime(b.build()).signedPodFields().fields();
    }

    @Test
    void theSignatureComparesWhatThePluginsReadAndTheSchedulerName() {
        assertThat(signed(new Reader("A", Set.of(PodField.TOLERATIONS)),
                new Reader("B", Set.of(PodField.REQUESTS, PodField.TOLERATIONS))))
                .containsExactlyInAnyOrder(PodField.SCHEDULER_NAME, PodField.REQUESTS, PodField.TOLERATIONS);
        assertThat(signed()).containsExactlyInAnyOrder(PodField.SCHEDULER_NAME);
    }

    @Test
    void aFieldAPluginKeysIsLeftToItsKeyUnlessAnotherPluginReadsItPlainly() {
        Reader keysLabels = new Reader("Keyed", Set.of(PodField.AFFINITY, PodField.LABELS), Set.of(PodField.LABELS));
        assertThat(signed(keysLabels)).containsExactlyInAnyOrder(PodField.SCHEDULER_NAME, PodField.AFFINITY);
        assertThat(signed(keysLabels, new Reader("Plain", Set.of(PodField.LABELS))))
                .containsExactlyInAnyOrder(PodField.SCHEDULER_NAME, PodField.LABELS, PodField.AFFINITY);
    }

    @Test
    void aPluginThatDeclaresNothingReadsEveryFieldSoNoTwoPodsAreAlike() {
        assertThat(signed(new Reader("A", Set.of(PodField.TOLERATIONS)), new Undeclared()))
                .isEqualTo(PodField.ALL);
        PodFields all = PodFields.of(PodField.ALL);
        Pod a = pod("a").requests("cpu", "1").build();
        Pod b = PodCopies.with(a, Map.of("ref", new PodRef(a.ref().namespace(), "b")));
        assertThat(all.same(info(a, 1000), info(b, 1000))).isFalse();
        assertThat(all.same(info(a, 1000), info(a, 1000))).isTrue();
    }

    @Test
    void pluginsAtOtherExtensionPointsAreNotAsked() {
        ReservePlugin reserve = new ReservePlugin() {
            @Override
            public String name() {
                return "Reserve";
            }

            @Override
            public Status reserve(CycleState state, PodInfo pod, NodeInfo node, ClusterView cluster) {
                return Status.SUCCESS;
            }

            @Override
            public void unreserve(CycleState state, PodInfo pod, NodeInfo node, ClusterView cluster) {
            }
        };
        assertThat(signed(new Reader("A", Set.of(PodField.TOLERATIONS)), reserve))
                .containsExactlyInAnyOrder(PodField.SCHEDULER_NAME, PodField.TOLERATIONS);
    }

    @Test
    void aPluginMayKeyOnlyFieldsItReads() {
        Reader wrong = new Reader("Wrong", Set.of(PodField.AFFINITY), Set.of(PodField.LABELS));
        assertThatThrownBy(() -> signed(wrong)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Wrong");
    }

    @Test
    void podFieldsCompareOnlyTheirFieldsAndRequestsByContent() {
        PodFields requests = PodFields.of(Set.of(PodField.REQUESTS));
        Pod a = pod("a").label("app", "web").build();
        Pod b = pod("b").label("app", "db").build();
        assertThat(requests.same(info(a, 1000), info(b, 1000))).isTrue();
        assertThat(requests.hash(info(a, 1000))).isEqualTo(requests.hash(info(b, 1000)));
        assertThat(requests.same(info(a, 1000), info(b, 2000))).isFalse();
        PodFields labels = PodFields.of(Set.of(PodField.LABELS));
        assertThat(labels.same(info(a, 1000), info(b, 1000))).isFalse();
    }

    @Test
    void everyComponentOfAPodHasAField() {
        Set<String> components = new TreeSet<>();
        for (RecordComponent c : Pod.class.getRecordComponents()) {
            components.add(c.getName());
        }
        Set<String> covered = new TreeSet<>();
        for (PodField f : EnumSet.allOf(PodField.class)) {
            covered.add(f.component());
        }
        assertThat(covered).as("a new Pod component needs a PodField, or ALL would not be every field")
                .isEqualTo(components);
    }

    private static PodInfo info(Pod p, long cpu) {
        return new PodInfo(p, new long[] {cpu, 0}, cpu, 0, 0, 0, 0);
    }
}
