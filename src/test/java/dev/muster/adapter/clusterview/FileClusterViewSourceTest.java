package dev.muster.adapter.clusterview;

import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.validation.RequestValidator;
import dev.muster.adapter.validation.ValidationLimits;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The file source over one file and over a directory of parts: shapes (snapshot object, kubectl {@code List},
 * typed list), the merge and its order, limits, validation messages that name the file, and reloads (on every
 * access here: check interval 0).
 */
class FileClusterViewSourceTest {
    private static final AtomicLong MTIME = new AtomicLong(1_700_000_000_000L);

    @TempDir
    Path dir;

    // ------------------------------------------------------------------ objects

    static String node(String name) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"" + name + "\"},"
                + "\"status\":{\"allocatable\":{\"cpu\":\"8\",\"memory\":\"32Gi\",\"pods\":\"110\"}}}";
    }

    static String pod(String ns, String name, String node) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"" + ns
                + "\"},\"spec\":{\"nodeName\":\"" + node + "\",\"containers\":[{\"name\":\"c\",\"resources\":"
                + "{\"requests\":{\"cpu\":\"1\"}}}]},\"status\":{\"phase\":\"Running\"}}";
    }

    /** {@code kubectl get ... -o json}: apiVersion, items, kind, metadata (sorted keys). */
    static String kubectlList(String... items) {
        return "{\"apiVersion\":\"v1\",\"items\":[" + String.join(",", items) + "],\"kind\":\"List\","
                + "\"metadata\":{\"resourceVersion\":\"\"}}";
    }

    static String snapshot(List<String> nodes, List<String> pods) {
        return "{\"nodes\":[" + String.join(",", nodes) + "],\"pods\":[" + String.join(",", pods) + "]}";
    }

    void write(String name, String content) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, content);
        // a distinct modification time per write, whatever the file system's resolution
        Files.setLastModifiedTime(f, FileTime.fromMillis(MTIME.addAndGet(1000)));
    }

    FileClusterViewSource source(Path path, ValidationLimits counts, long maxFileBytes) {
        RequestValidator validator = new RequestValidator(counts);
        return new FileClusterViewSource(path, 0, () -> 0L,
                (s, where) -> ClusterViewProducer.problems(validator.validateSnapshot(s, "snapshot"), where),
                new FileClusterViewSource.Limits(maxFileBytes, KubeCodec.Limits.DEFAULT, counts));
    }

    FileClusterViewSource source() {
        return source(dir, ValidationLimits.DEFAULT, 1 << 20);
    }

    static List<String> names(List<Pod> pods) {
        List<String> out = new ArrayList<>();
        for (Pod p : pods) {
            out.add(p.ref().namespace() + "/" + p.ref().name());
        }
        return out;
    }

    static List<String> nodeNames(List<Node> nodes) {
        return nodes.stream().map(Node::name).toList();
    }

    // ------------------------------------------------------------------ loading and merging

    @Test
    void directoryPartsOfEveryShapeMergeIntoOneViewInKeyOrder() throws IOException {
        write("10-nodes.json", kubectlList(node("n2"), node("n1")));
        write("20-pods.yaml", """
                apiVersion: v1
                kind: PodList
                items:
                - metadata: {name: b, namespace: team}
                  spec: {nodeName: n1, containers: [{name: c, resources: {requests: {cpu: "1"}}}]}
                """);
        write("30-more.json", snapshot(List.of(node("n0")), List.of(pod("team", "a", "n2"), pod("alpha", "z", "n0"))));
        write(".30-more.json.tmp", "{ not json");
        write("notes.txt", "not a part");

        FileClusterViewSource s = source();
        WatchedClusterVersion v = s.current();

        assertThat(s.lastError()).isEmpty();
        assertThat(v.generation()).isEqualTo(1);
        assertThat(v.source()).isEqualTo("directory " + dir);
        assertThat(nodeNames(v.state().nodes())).containsExactly("n0", "n1", "n2");
        assertThat(names(v.state().pods())).containsExactly("alpha/z", "team/a", "team/b");
        assertThat(v.pod(new dev.muster.core.model.PodRef("team", "b")).nodeName()).isEqualTo("n1");
    }

    @Test
    void theSameObjectsSplitDifferentlyGiveTheSameView() throws IOException {
        write("all.json", snapshot(List.of(node("n1"), node("n2")), List.of(pod("ns", "p2", "n2"),
                pod("ns", "p1", "n1"))));
        WatchedClusterVersion whole = source().current();

        Files.delete(dir.resolve("all.json"));
        write("a.json", kubectlList(pod("ns", "p1", "n1"), node("n2")));
        write("b.json", kubectlList(node("n1"), pod("ns", "p2", "n2")));
        WatchedClusterVersion split = source().current();

        assertThat(split.state()).isEqualTo(whole.state());
    }

    @Test
    void aSingleFileMayBeAKubectlList() throws IOException {
        write("cluster.json", kubectlList(node("n1"), pod("ns", "p1", "n1")));
        FileClusterViewSource s = source(dir.resolve("cluster.json"), ValidationLimits.DEFAULT, 1 << 20);

        assertThat(s.current().state().pods()).hasSize(1);
        assertThat(s.current().source()).isEqualTo("file " + dir.resolve("cluster.json"));
    }

    @Test
    void typedListItemsTakeTheListsKindWhenItComesFirst() throws IOException {
        // as the API server answers a list call: kind first, items without their own kind
        write("nodes.json", "{\"kind\":\"NodeList\",\"apiVersion\":\"v1\",\"metadata\":{},\"items\":["
                + "{\"metadata\":{\"name\":\"n1\"},\"status\":{\"allocatable\":{\"cpu\":\"4\"}}}]}");
        FileClusterViewSource s = source();

        assertThat(nodeNames(s.current().state().nodes())).containsExactly("n1");
    }

    @Test
    void itemsOfOtherKindsAreSkipped() throws IOException {
        write("all.json", kubectlList(node("n1"),
                "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"web\"},\"spec\":{\"ports\":[]}}",
                pod("ns", "p1", "n1")));
        FileClusterViewSource s = source();

        assertThat(s.lastError()).isEmpty();
        assertThat(s.current().state().nodes()).hasSize(1);
        assertThat(s.current().state().pods()).hasSize(1);
    }

    @Test
    void anItemWithoutAKindIsRejectedWithItsPlace() throws IOException {
        write("nodes.json", "{\"apiVersion\":\"v1\",\"items\":[" + node("n1")
                + ",{\"metadata\":{\"name\":\"n2\"}}],\"kind\":\"List\"}");
        FileClusterViewSource s = source();

        assertThat(s.current().generation()).isZero();
        assertThat(s.lastError()).hasValueSatisfying(m -> assertThat(m)
                .startsWith("nodes.json: items[1]").contains("must say its kind"));
    }

    @Test
    void validationCausesNameTheFileAndTheItem() throws IOException {
        write("a.json", kubectlList(node("n1"), pod("ns", "p1", "n1")));
        write("b.json", kubectlList(pod("ns", "p2", "n1"), pod("ns", "Not_A_Name", "n1")));
        FileClusterViewSource s = source();

        assertThat(s.current().generation()).isZero();
        assertThat(s.lastError()).hasValueSatisfying(m -> assertThat(m)
                .startsWith("b.json: items[1].metadata.name: Invalid value: \"Not_A_Name\""));
    }

    @Test
    void anObjectInTwoFilesIsADuplicateNamedInTheSecond() throws IOException {
        write("a.json", snapshot(List.of(node("n1")), List.of()));
        write("b.json", kubectlList(node("n2"), node("n1")));
        FileClusterViewSource s = source();

        assertThat(s.lastError()).hasValueSatisfying(m -> assertThat(m)
                .startsWith("b.json: items[1].metadata.name: Duplicate value: \"n1\""));
    }

    @Test
    void aFileAndAListInOneDocumentIsRejected() throws IOException {
        write("x.json", "{\"kind\":\"List\",\"items\":[],\"nodes\":[]}");
        FileClusterViewSource s = source();

        assertThat(s.lastError()).hasValueSatisfying(m -> assertThat(m).startsWith("x.json: is both"));
    }

    @Test
    void anEmptyDirectoryIsRejected() {
        FileClusterViewSource s = source();

        assertThat(s.current().generation()).isZero();
        assertThat(s.lastError()).hasValue("holds no .json, .yaml or .yml file");
    }

    // ------------------------------------------------------------------ limits

    @Test
    void aFileOverThePerFileLimitIsNotReadAndThePreviousViewStays() throws IOException {
        write("a.json", kubectlList(node("n1")));
        FileClusterViewSource s = source(dir, ValidationLimits.DEFAULT, 2_000);
        WatchedClusterVersion before = s.current();
        assertThat(before.generation()).isEqualTo(1);

        List<String> pods = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            pods.add(pod("ns", "p" + i, "n1"));
        }
        write("b.json", kubectlList(pods.toArray(String[]::new)));

        assertThat(s.current()).isSameAs(before);
        assertThat(s.lastError()).hasValueSatisfying(m -> assertThat(m).startsWith("b.json: ")
                .contains("over the limit of 2000 per file (muster.cluster-view.file-max-size)"));
    }

    @Test
    void moreObjectsThanTheViewsLimitInAllFilesAreRejected() throws IOException {
        ValidationLimits two = new ValidationLimits(10, 2, 10, 10, 100);
        write("a.json", kubectlList(node("n1"), pod("ns", "p1", "n1")));
        FileClusterViewSource s = source(dir, two, 1 << 20);
        WatchedClusterVersion before = s.current();

        write("b.json", kubectlList(pod("ns", "p2", "n1"), pod("ns", "p3", "n1")));

        assertThat(s.current()).isSameAs(before);
        assertThat(s.lastError()).hasValue("b.json: more than 2 pods in all files (raise muster.cluster-view.max-pods "
                + "to hold more)");
    }

    // ------------------------------------------------------------------ files read at once

    FileClusterViewSource source(int readThreads, ValidationLimits counts) {
        RequestValidator validator = new RequestValidator(counts);
        return new FileClusterViewSource(dir, 0, () -> 0L,
                (s, where) -> ClusterViewProducer.problems(validator.validateSnapshot(s, "snapshot"), where),
                new FileClusterViewSource.Limits(1 << 20, KubeCodec.Limits.DEFAULT, counts, readThreads));
    }

    @Test
    void readingSeveralFilesAtOnceGivesTheViewOfReadingThemOneByOne() throws IOException {
        for (int i = 0; i < 9; i++) {
            // nodes and pods spread so that every file adds to lists earlier files started
            write(String.format("%02d.json", i), kubectlList(pod("ns", "p" + (8 - i), "n" + i), node("n" + i),
                    pod("other", "q" + i, "n" + (8 - i))));
        }
        WatchedClusterVersion one = source(1, ValidationLimits.DEFAULT).current();

        for (int threads : new int[] {2, 3, 16}) {
            WatchedClusterVersion many = source(threads, ValidationLimits.DEFAULT).current();
            assertThat(many.generation()).isEqualTo(1);
            assertThat(many.state()).isEqualTo(one.state());
        }
        assertThat(nodeNames(one.state().nodes())).hasSize(9);
        assertThat(names(one.state().pods())).hasSize(18).startsWith("ns/p0", "ns/p1");
    }

    @Test
    void theFirstBadFileInNameOrderIsTheOneReportedHoweverManyAreReadAtOnce() throws IOException {
        write("01.json", kubectlList(node("n1")));
        write("02.json", "{\"apiVersion\":\"v1\",\"items\":[{\"kind\":\"Node\",");
        write("03.json", kubectlList(node("n3")));
        write("04.json", "[1, 2]");
        write("05.json", kubectlList(node("n5")));

        String sequential = source(1, ValidationLimits.DEFAULT).lastError().orElseThrow();
        assertThat(sequential).startsWith("02.json: ");
        for (int threads : new int[] {2, 4}) {
            FileClusterViewSource s = source(threads, ValidationLimits.DEFAULT);
            assertThat(s.current().generation()).isZero();
            assertThat(s.lastError()).hasValue(sequential);
        }
    }

    @Test
    void aLimitStopsTheMergeAtTheSameFileWhenReadingAhead() throws IOException {
        ValidationLimits threePods = new ValidationLimits(100, 3, 100, 100, 100, 100);
        write("a.json", kubectlList(pod("ns", "a1", "n"), pod("ns", "a2", "n")));
        write("b.json", kubectlList(pod("ns", "b1", "n"), pod("ns", "b2", "n")));
        write("c.json", "not even JSON");

        for (int threads : new int[] {1, 3}) {
            assertThat(source(threads, threePods).lastError()).as("%d thread(s)", threads)
                    .hasValue("b.json: more than 3 pods in all files (raise muster.cluster-view.max-pods to hold more)");
        }
    }

    @Test
    void theProducerReadsTwoFilesAtOnceWhereTwoProcessorsAreAndRefusesNone() {
        ValidationLimits request = ValidationLimits.DEFAULT;
        KubeCodec.Limits parser = KubeCodec.Limits.DEFAULT;

        assertThat(ClusterViewProducer.fileLimits(config(null, null), request, parser).readThreads())
                .isEqualTo(Math.min(2, Runtime.getRuntime().availableProcessors()));
        assertThat(ClusterViewProducer.fileLimits(config(null, null, null, 4), request, parser).readThreads())
                .isEqualTo(4);
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> ClusterViewProducer.fileLimits(config(null, null, null, 0), request, parser))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("muster.cluster-view.file-read-threads must be 1 to 64, got 0");
    }

    @Test
    void theProducerTakesTheRequestLimitsUnlessTheViewSetsItsOwn() {
        ValidationLimits request = new ValidationLimits(20, 200, 30, 40, 50, 60);
        KubeCodec.Limits parser = new KubeCodec.Limits(64, 1024, 64, 5_000);

        FileClusterViewSource.Limits defaults = ClusterViewProducer.fileLimits(config(null, null), request, parser);
        assertThat(defaults.maxFileBytes()).isEqualTo(5_000);
        assertThat(defaults.counts()).isEqualTo(request);

        FileClusterViewSource.Limits own = ClusterViewProducer.fileLimits(config(1_000_000, "1G"), request, parser);
        assertThat(own.maxFileBytes()).isEqualTo(1L << 30);
        assertThat(own.counts().maxPods()).isEqualTo(1_000_000);
        assertThat(own.counts().maxNodes()).isEqualTo(20);
    }

    @Test
    void theProducerServesADirectoryAtTheViewsLimits() throws IOException {
        write("nodes.json", kubectlList(node("n1")));
        write("pods.json", kubectlList(pod("ns", "p1", "n1"), pod("ns", "p2", "n1")));
        ClusterViewProducer producer = new ClusterViewProducer();
        producer.config = config(1, null, dir.toString());
        KubeCodec codec = new KubeCodec(KubeCodec.Limits.DEFAULT);

        FileClusterViewSource s = (FileClusterViewSource) producer.clusterViewSource(
                new RequestValidator(ValidationLimits.DEFAULT), codec);

        assertThat(s.current().generation()).isZero();
        assertThat(s.lastError()).hasValue("pods.json: more than 1 pods in all files (raise "
                + "muster.cluster-view.max-pods to hold more)");

        producer.config = config(2, null, dir.toString());
        FileClusterViewSource wider = (FileClusterViewSource) producer.clusterViewSource(
                new RequestValidator(ValidationLimits.DEFAULT), codec);
        assertThat(wider.current().state().pods()).hasSize(2);
    }

    static ClusterViewConfig config(Integer maxPods, String fileMaxSize) {
        return config(maxPods, fileMaxSize, null);
    }

    static ClusterViewConfig config(Integer maxPods, String fileMaxSize, String file) {
        return config(maxPods, fileMaxSize, file, null);
    }

    static ClusterViewConfig config(Integer maxPods, String fileMaxSize, String file, Integer readThreads) {
        return new ClusterViewConfig() {
            public String source() {
                return "file";
            }

            public java.util.Optional<String> file() {
                return java.util.Optional.ofNullable(file);
            }

            public java.time.Duration fileCheckInterval() {
                return java.time.Duration.ZERO;
            }

            public java.util.Optional<io.quarkus.runtime.configuration.MemorySize> fileMaxSize() {
                return java.util.Optional.ofNullable(fileMaxSize).map(v -> new io.quarkus.runtime.configuration
                        .MemorySize(java.math.BigInteger.valueOf(1L << 30)));
            }

            public java.util.OptionalInt fileReadThreads() {
                return readThreads == null ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(readThreads);
            }

            public java.util.OptionalInt maxNodes() {
                return java.util.OptionalInt.empty();
            }

            public java.util.OptionalInt maxPods() {
                return maxPods == null ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(maxPods);
            }

            public java.util.OptionalInt maxPodGroups() {
                return java.util.OptionalInt.empty();
            }

            public java.util.OptionalInt maxObjects() {
                return java.util.OptionalInt.empty();
            }

            public java.util.OptionalInt maxHyperNodes() {
                return java.util.OptionalInt.empty();
            }
        };
    }

    // ------------------------------------------------------------------ reloads

    @Test
    void aChangedFileReloadsAndUnchangedObjectsKeepTheirInstances() throws IOException {
        write("nodes.json", kubectlList(node("n1"), node("n2")));
        write("pods.json", kubectlList(pod("ns", "p1", "n1"), pod("ns", "p2", "n2")));
        FileClusterViewSource s = source();
        WatchedClusterVersion first = s.current();
        first.compiled();

        assertThat(s.current()).isSameAs(first); // nothing changed: the same view
        write("pods.json", kubectlList(pod("ns", "p1", "n1"), pod("ns", "p2", "n1"), pod("ns", "p3", "n2")));
        WatchedClusterVersion second = s.current();

        assertThat(second.generation()).isEqualTo(2);
        assertThat(names(second.state().pods())).containsExactly("ns/p1", "ns/p2", "ns/p3");
        assertThat(second.state().nodes().get(0)).isSameAs(first.state().nodes().get(0));
        assertThat(second.state().pods().get(0)).isSameAs(first.state().pods().get(0)); // p1 unchanged
        assertThat(second.state().pods().get(1)).isNotSameAs(first.state().pods().get(1)); // p2 moved
        assertThat(second.compiled().podObject(new dev.muster.core.model.PodRef("ns", "p2")).nodeName())
                .isEqualTo("n1");
    }

    @Test
    void addingOrRemovingAFileReloads() throws IOException {
        write("nodes.json", kubectlList(node("n1")));
        FileClusterViewSource s = source();
        assertThat(s.current().state().pods()).isEmpty();

        write("pods.json", kubectlList(pod("ns", "p1", "n1")));
        assertThat(s.current().generation()).isEqualTo(2);
        assertThat(s.current().state().pods()).hasSize(1);

        Files.delete(dir.resolve("pods.json"));
        assertThat(s.current().generation()).isEqualTo(3);
        assertThat(s.current().state().pods()).isEmpty();
    }

    @Test
    void aBrokenPartKeepsThePreviousViewUntilItIsFixed() throws IOException {
        write("nodes.json", kubectlList(node("n1")));
        write("pods.json", kubectlList(pod("ns", "p1", "n1")));
        FileClusterViewSource s = source();
        WatchedClusterVersion good = s.current();

        write("pods.json", "{\"apiVersion\":\"v1\",\"items\":[" + pod("ns", "p1", "n1") + ",");
        assertThat(s.current()).isSameAs(good);
        assertThat(s.lastError()).hasValueSatisfying(m -> assertThat(m).startsWith("pods.json: "));

        write("pods.json", kubectlList(pod("ns", "p1", "n1"), pod("ns", "p2", "n1")));
        assertThat(s.current().generation()).isEqualTo(2);
        assertThat(s.current().state().pods()).hasSize(2);
        assertThat(s.lastError()).isEmpty();
    }

    @Test
    void theCheckIntervalBoundsHowOftenTheFilesAreLookedAt() throws IOException {
        write("nodes.json", kubectlList(node("n1")));
        AtomicLong now = new AtomicLong(0);
        RequestValidator validator = new RequestValidator(ValidationLimits.DEFAULT);
        FileClusterViewSource s = new FileClusterViewSource(dir, 1000, now::get,
                (snap, where) -> ClusterViewProducer.problems(validator.validateSnapshot(snap, "snapshot"), where),
                FileClusterViewSource.Limits.DEFAULT);
        now.set(10);
        s.current();

        write("pods.json", kubectlList(pod("ns", "p1", "n1")));
        now.set(500);
        assertThat(s.current().generation()).isEqualTo(1); // within the interval: not looked at
        now.set(1500);
        assertThat(s.current().generation()).isEqualTo(2);
    }
}
