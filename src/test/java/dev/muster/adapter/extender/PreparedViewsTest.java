package dev.muster.adapter.extender;

import dev.muster.adapter.clusterview.WatchedClusterVersion;
import dev.muster.adapter.clusterview.ViewStore;
import dev.muster.adapter.extender.ExtenderWire.ExtenderArgs;
import dev.muster.adapter.extender.ExtenderWire.ExtenderFilterResult;
import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.KubeMapper;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.EngineConfig;
import dev.muster.core.model.Pod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Semaphore;

import static dev.muster.adapter.extender.Fixtures.RACK;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The extender over prepared views: calls answer from the newest prepared view (compiled and decided off the
 * request path) while a newer one is being prepared, wait for it once it is too stale or when the call's pod is
 * only in the newer one, and read the source directly in synchronous mode.
 */
class PreparedViewsTest {
    private static final List<String> NODES = List.of("n1", "n2", "n3", "n4");
    private final KubeCodec kube = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private final ExtenderCodec codec = new ExtenderCodec();
    private final DecisionEngine engine = new DecisionEngine(EngineConfig.DEFAULT);
    private final ViewStore store = new ViewStore("test");
    /** Permits for the worker to read the store: lets a test hold the preparation of a newer view. */
    private final Semaphore gate = new Semaphore(Integer.MAX_VALUE);
    private PreparedViews views;

    @AfterEach
    void close() {
        if (views != null) {
            views.close();
        }
    }

    private ExtenderService service(Duration maxStaleness) throws Exception {
        for (String n : NODES) {
            putNode(n);
        }
        store.putPodGroup("ml/g", KubeMapper.podGroup(kube.readJson(Fixtures.gang("ml", "g", 2, RACK)
                .getBytes(StandardCharsets.UTF_8), Kube.PodGroup.class)));
        putPod(member("g", 0));
        putPod(member("g", 1));
        views = new PreparedViews(() -> {
            gate.acquireUninterruptibly();
            gate.release();
            return store.current();
        }, store::changes, maxStaleness);
        return new ExtenderService(views, engine, codec, 16);
    }

    private void putNode(String n) throws Exception {
        store.putNode(n, KubeMapper.node(kube.readJson(Fixtures.node(n, n.compareTo("n3") < 0 ? "r1" : "r2", "4")
                .getBytes(StandardCharsets.UTF_8), Kube.Node.class)));
    }

    private static String member(String group, int i) {
        return Fixtures.pod("ml", group + "-" + i, group, "1");
    }

    private void putPod(String json) throws Exception {
        Pod p = KubeMapper.pod(kube.readJson(json.getBytes(StandardCharsets.UTF_8), Kube.Pod.class));
        store.putPod(p.ref().namespace() + "/" + p.ref().name(), p);
    }

    private ExtenderFilterResult filter(ExtenderService service, String podJson) throws Exception {
        StringBuilder names = new StringBuilder();
        for (String n : NODES) {
            names.append(names.length() == 0 ? "\"" : ",\"").append(n).append('"');
        }
        return service.filter(codec.read(("{\"Pod\":" + podJson + ",\"NodeNames\":[" + names + "]}")
                .getBytes(StandardCharsets.UTF_8), ExtenderArgs.class));
    }

    private static String kept(ExtenderFilterResult r) {
        assertThat(r.nodeNames()).as("answer %s", r).hasSize(1);
        return r.nodeNames().get(0);
    }

    @Test
    void aCallAnswersFromThePreparedViewWhileTheNewerOneIsPreparedThenFromTheNewer() throws Exception {
        ExtenderService service = service(Duration.ofDays(1));
        WatchedClusterVersion first = views.awaitLatest();
        String node = kept(filter(service, member("g", 0)));
        assertThat(service.decisionsComputed()).as("prepared ahead of the call").isEqualTo(1);

        gate.acquireUninterruptibly(Integer.MAX_VALUE); // the worker cannot read the store now
        store.removeNode(node);
        assertThat(views.get()).as("the newer view is not prepared yet").isSameAs(first);
        assertThat(kept(filter(service, member("g", 0)))).as("the decision of the view read").isEqualTo(node);
        assertThat(service.decisionsComputed()).as("nothing decided on the call").isEqualTo(1);

        gate.release(Integer.MAX_VALUE);
        WatchedClusterVersion second = views.awaitLatest();
        assertThat(second.generation()).isEqualTo(store.changes());
        assertThat(service.decisionsComputed()).isEqualTo(2);
        String now = kept(filter(service, member("g", 0)));
        assertThat(now).isNotEqualTo(node);
        assertThat(service.decisionsComputed()).as("the call read the prepared decision").isEqualTo(2);
        assertThat(kept(filter(synchronousOver(second), member("g", 0))))
                .as("the same answer as deciding that view on the call").isEqualTo(now);
    }

    @Test
    void aViewStaleForLongerThanTheBoundIsNotAnsweredFrom() throws Exception {
        ExtenderService service = service(Duration.ofNanos(1));
        views.awaitLatest();
        String node = kept(filter(service, member("g", 0)));
        store.removeNode(node);
        long changed = store.changes();
        views.get(); // notices the newer generation
        Thread.sleep(2); // longer than the bound since then
        assertThat(views.get().generation()).as("waited for the newer view").isEqualTo(changed);
        assertThat(kept(filter(service, member("g", 0)))).isNotEqualTo(node);
    }

    @Test
    void aPodOnlyTheNewerViewKnowsWaitsForItInsteadOfDecidingAMergedView() throws Exception {
        ExtenderService service = service(Duration.ofDays(1));
        views.awaitLatest();
        gate.acquireUninterruptibly(Integer.MAX_VALUE);
        store.putPodGroup("ml/h", KubeMapper.podGroup(kube.readJson(Fixtures.gang("ml", "h", 1, RACK)
                .getBytes(StandardCharsets.UTF_8), Kube.PodGroup.class)));
        putPod(member("h", 0));
        Thread opener = new Thread(() -> gate.release(Integer.MAX_VALUE));
        opener.start();
        ExtenderFilterResult r = filter(service, member("h", 0));
        opener.join();
        assertThat(r.nodeNames()).as("placed: %s", r).hasSize(1);
        assertThat(service.decisionsComputed()).as("every decision was a prepared view's").isEqualTo(views.prepared());
    }

    @Test
    void synchronousModeReadsTheSourceOnEveryCall() throws Exception {
        ExtenderService service = service(Duration.ZERO);
        String node = kept(filter(service, member("g", 0)));
        store.removeNode(node);
        assertThat(views.get().generation()).isEqualTo(store.changes());
        assertThat(kept(filter(service, member("g", 0)))).isNotEqualTo(node);
        assertThat(views.prepared()).as("no worker").isZero();
    }

    private ExtenderService synchronousOver(WatchedClusterVersion v) {
        return new ExtenderService(() -> v, engine, codec, 4);
    }
}
