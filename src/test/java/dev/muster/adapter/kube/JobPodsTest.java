package dev.muster.adapter.kube;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class JobPodsTest {
    private static Kube.Job job(Integer parallelism, Integer completions, String mode, Boolean suspend) {
        Kube.PodSpec spec;
        try {
            spec = new KubeCodec(KubeCodec.Limits.DEFAULT).readJson(
                    "{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]}".getBytes(),
                    Kube.PodSpec.class);
        } catch (DecodeException e) {
            throw new AssertionError(e);
        }
        return new Kube.Job("batch/v1", "Job", new Kube.ObjectMeta("train", "ml", "uid-1", null, null,
                "2026-04-22T10:00:00Z", null, null), new Kube.JobSpec(parallelism, completions, mode, suspend,
                new Kube.JobTemplate(new Kube.ObjectMeta(null, null, null, Map.of("app", "train"), null, null, null,
                        null), spec)), null);
    }

    @Test
    void anIndexedJobsPodsAreNamedByIndexAndCarryTheControllersLabels() {
        List<Kube.Pod> pods = JobPods.of(job(3, 5, "Indexed", null));
        assertThat(pods).extracting(p -> p.metadata().name()).containsExactly("train-0", "train-1", "train-2");
        Kube.Pod p = pods.get(2);
        assertThat(p.metadata().namespace()).isEqualTo("ml");
        assertThat(p.metadata().labels()).containsEntry("app", "train")
                .containsEntry(JobGangs.JOB_NAME_LABEL, "train").containsEntry(JobGangs.CONTROLLER_UID_LABEL, "uid-1")
                .containsEntry(JobPods.COMPLETION_INDEX, "2");
        assertThat(p.spec().containers()).hasSize(1);
        assertThat(p.status().phase()).isEqualTo("Pending");
        assertThat(JobGangs.controls(job(3, 5, "Indexed", null), p.metadata().labels())).isTrue();
    }

    @Test
    void parallelismIsCappedByCompletionsAndASuspendedJobHasNoPods() {
        assertThat(JobPods.count(job(8, 2, null, null))).isEqualTo(2);
        assertThat(JobPods.count(job(null, null, null, null))).isEqualTo(1);
        assertThat(JobPods.count(job(4, null, null, true))).isZero();
        assertThat(JobPods.of(job(2, null, "NonIndexed", null))).extracting(p -> p.metadata().name())
                .containsExactly("train-0", "train-1");
        assertThat(JobPods.of(job(2, null, "NonIndexed", null)).get(0).metadata().labels())
                .doesNotContainKey(JobPods.COMPLETION_INDEX);
    }

    @Test
    void aJobWhosePodsAreGivenGetsNoMore() {
        Kube.Job j = job(2, null, null, null);
        List<Kube.Pod> given = List.of(JobPods.of(j).get(0));
        assertThat(JobPods.withJobPods(given, List.of(j))).hasSize(1);
        assertThat(JobPods.withJobPods(List.of(), List.of(j))).hasSize(2);
    }
}
