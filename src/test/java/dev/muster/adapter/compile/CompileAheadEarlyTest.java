package dev.muster.adapter.compile;

import dev.muster.adapter.validation.ValidationLimits;
import dev.muster.adapter.kube.Arrival;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.KubeMapper;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.PodRef;
import dev.muster.core.snapshot.ClusterSnapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cluster mapped while the rest of the snapshot is decoded: taken when the decoded document holds the very lists
 * it was mapped from, mapped again when a list the cluster reads came later, and never started for a small request.
 */
class CompileAheadEarlyTest {
    private static final KubeCodec CODEC = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private final List<CompileAhead> opened = new ArrayList<>();

    @AfterEach
    void close() {
        opened.forEach(CompileAhead::close);
    }

    private CompileAhead ahead(int threshold) {
        CompileAhead a = new CompileAhead(1, threshold, ValidationLimits.DEFAULT);
        opened.add(a);
        return a;
    }

    private static final String NODES = """
            "nodes": [{"metadata": {"name": "n1", "labels": {"rack": "r1"}},
                       "status": {"allocatable": {"cpu": "8", "memory": "32Gi", "pods": "110"}}},
                      {"metadata": {"name": "n2"},
                       "status": {"allocatable": {"cpu": "8", "memory": "32Gi", "pods": "110"}}}]""";
    private static final String PODS = """
            "pods": [{"metadata": {"name": "p1", "namespace": "default"},
                      "spec": {"nodeName": "n1", "containers": [{"name": "c",
                        "resources": {"requests": {"cpu": "1"}}}]}}]""";
    private static final String CLASSES = """
            "deviceClasses": [{"metadata": {"name": "gpu"}}]""";
    private static final String PRIORITY = """
            "priorityClasses": [{"metadata": {"name": "high"}, "value": 1000}]""";

    private static RequestDocument decode(String snapshotFields, CompileAhead.Early early) throws Exception {
        byte[] body = ("{\"snapshot\": {" + snapshotFields + "}}").getBytes(StandardCharsets.UTF_8);
        return CODEC.readJson(body, Arrival.WHOLE, early);
    }

    /** Runs what the helper runs, and tells when the early mapping is done. */
    private static UnaryOperator<Callable<Void>> signalling(CountDownLatch done) {
        return work -> () -> {
            try {
                return work.call();
            } finally {
                done.countDown();
            }
        };
    }

    @Test
    void theClusterMappedWhileTheDeviceListsAreDecodedIsTheOneCompiled() throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        CompileAhead.Early early = ahead(0).early(signalling(done));
        RequestDocument doc = decode(NODES + "," + PODS + "," + CLASSES, early);
        assertThat(early.startedEarly()).as("started when the decoder reached the device classes").isTrue();
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();

        ClusterState first = early.clusterOf(doc.snapshot());
        assertThat(early.clusterOf(doc.snapshot())).as("the helper's mapping, not a new one").isSameAs(first);
        ClusterState fresh = KubeMapper.toClusterState(doc.snapshot());
        assertThat(first).isNotSameAs(fresh);
        assertThat(first.nodes()).isEqualTo(fresh.nodes());
        assertThat(first.pods()).isEqualTo(fresh.pods());
    }

    @Test
    void aListTheClusterReadsArrivingAfterTheDeviceListsIsNotMissed() throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        CompileAhead.Early early = ahead(0).early(signalling(done));
        RequestDocument doc = decode(NODES + "," + PODS + "," + CLASSES + "," + PRIORITY, early);
        assertThat(early.startedEarly()).isTrue();
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();

        ClusterState cluster = early.clusterOf(doc.snapshot());
        assertThat(cluster.priorityClasses()).as("mapped again, with the PriorityClass decoded last").hasSize(1);
        assertThat(early.clusterOf(doc.snapshot())).as("a new mapping each time").isNotSameAs(cluster);
    }

    @Test
    void aDocumentTheBytePathGivesUpOnIsMappedAgainFromJacksonsObjects() throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        CompileAhead.Early early = ahead(0).early(signalling(done));
        // an escaped surrogate pair in a field name after the snapshot: the byte path leaves it to Jackson, which
        // decodes the whole body again into other objects
        String after = ", \"x\": {\"a\\ud83d\\ude00\": 1}";
        byte[] body = ("{\"snapshot\": {" + NODES + "," + PODS + "," + CLASSES + "}" + after + "}")
                .getBytes(StandardCharsets.UTF_8);
        RequestDocument doc = CODEC.readJson(body, Arrival.WHOLE, early);
        assertThat(early.startedEarly()).as("the byte path reached the device classes first").isTrue();
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();

        ClusterState cluster = early.clusterOf(doc.snapshot());
        assertThat(early.clusterOf(doc.snapshot())).as("not the helper's mapping: a new one each time")
                .isNotSameAs(cluster);
        assertThat(cluster.nodes()).hasSize(2);
        assertThat(cluster.pods()).hasSize(1);
    }

    @Test
    void nothingStartsBeforeNodesAndPodsAreInOrForASmallRequest() throws Exception {
        CompileAhead.Early devicesFirst = ahead(0).early(UnaryOperator.identity());
        decode(CLASSES + "," + NODES + "," + PODS, devicesFirst);
        assertThat(devicesFirst.startedEarly()).as("device classes before nodes and pods").isFalse();

        CompileAhead.Early small = ahead(4).early(UnaryOperator.identity());
        decode(NODES + "," + PODS + "," + CLASSES, small);
        assertThat(small.startedEarly()).as("2 nodes + 1 pod, below the threshold of 4").isFalse();

        assertThat(CompileAhead.OFF.early(UnaryOperator.identity())).isSameAs(CompileAhead.Early.NONE);
        CompileAhead.Early none = CompileAhead.Early.NONE;
        RequestDocument doc = decode(NODES + "," + PODS + "," + CLASSES, none);
        assertThat(none.startedEarly()).isFalse();
        assertThat(none.clusterOf(doc.snapshot()).nodes()).hasSize(2);
    }

    @Test
    void theStagesOfTheRequestRunOnTheHelperThatMappedItsCluster() throws Exception {
        CountDownLatch mapped = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompileAhead ahead = ahead(0);
        // the helper holds on after its mapping until the stages are handed over, so the hand-over is exercised
        CompileAhead.Early early = ahead.early(work -> () -> {
            mapped.countDown();
            release.await(10, TimeUnit.SECONDS);
            return work.call();
        });
        RequestDocument doc = decode(NODES + "," + PODS + "," + CLASSES, early);
        assertThat(mapped.await(10, TimeUnit.SECONDS)).isTrue();
        List<String> threads = new ArrayList<>();
        CountDownLatch staged = new CountDownLatch(1);
        CompileAhead.Stages stages = new CompileAhead.Stages();
        stages.add(() -> {
            synchronized (threads) {
                threads.add(Thread.currentThread().getName());
            }
            staged.countDown();
            return null;
        });
        CompileAhead.Task task = ahead.start(doc, stages, UnaryOperator.identity(), early);
        release.countDown();
        // had the hand-over failed, the only helper is busy and nobody runs the stage until join() does, here
        assertThat(staged.await(10, TimeUnit.SECONDS)).isTrue();
        task.join();
        assertThat(threads).singleElement().asString().startsWith("muster-compile-");
    }

    @Test
    void theHelperCompilesTheClusterSnapshotItMappedForTheSnapshotStageToComplete() throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        CompileAhead.Early early = ahead(0).early(signalling(done));
        RequestDocument doc = decode(NODES + "," + PODS + "," + CLASSES, early);
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();

        ClusterState cluster = early.clusterOf(doc.snapshot());
        ClusterSnapshot compiled = early.snapshotOf(cluster);
        assertThat(compiled).as("compiled on the helper after its mapping").isNotNull();
        assertThat(early.snapshotOf(cluster)).isSameAs(compiled);
        assertThat(compiled.nodeCount()).isEqualTo(2);
        assertThat(early.snapshotOf(KubeMapper.toClusterState(doc.snapshot())))
                .as("not for a cluster mapped again").isNull();

        CompileAhead.Compiled whole = ahead(0).start(doc, CompileAhead.compile(doc, early)).join();
        PodRef p1 = new PodRef("default", "p1");
        assertThat(whole.snapshot().pod(p1)).as("the completed snapshot holds the helper's compiled pods")
                .isSameAs(compiled.pod(p1));
    }

    @Test
    void noSnapshotIsCompiledEarlyWhenAPodAsksForExtendedResources() throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        CompileAhead.Early early = ahead(0).early(signalling(done));
        String pods = PODS.replace("\"cpu\": \"1\"", "\"cpu\": \"1\", \"example.com/gpu\": \"1\"");
        RequestDocument doc = decode(NODES + "," + pods + "," + CLASSES, early);
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();

        ClusterState cluster = early.clusterOf(doc.snapshot());
        assertThat(cluster.pods().get(0).extendedRequests()).isNotEmpty();
        assertThat(early.snapshotOf(cluster)).as("the DeviceClasses decide how it compiles").isNull();
    }
}
