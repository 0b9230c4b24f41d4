package dev.muster.adapter.clusterview;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.WatcherException;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

/** When the cluster view's informers try again: an initial list is retried unless the kind is not served. */
class InformerRetryTest {

    @Test
    void aFailedInitialListIsRetriedSoReadinessWaitsInsteadOfServingAPartialView() {
        assertThat(KubernetesClusterViewSource.retry(false, new KubernetesClientException("boom", 500, null))).isTrue();
        assertThat(KubernetesClusterViewSource.retry(false, new KubernetesClientException("no", 403, null))).isTrue();
        assertThat(KubernetesClusterViewSource.retry(false, new IOException("connection refused"))).isTrue();
    }

    @Test
    void aKindTheServerDoesNotServeSettlesAsEmpty() {
        assertThat(KubernetesClusterViewSource.retry(false, new KubernetesClientException("not found", 404, null)))
                .isFalse();
        assertThat(KubernetesClusterViewSource.retry(false,
                new RuntimeException(new KubernetesClientException("not found", 404, null)))).isFalse();
    }

    @Test
    void afterTheInitialListFabric8sRuleApplies() {
        assertThat(KubernetesClusterViewSource.retry(true, new IOException("reset"))).isTrue();
        assertThat(KubernetesClusterViewSource.retry(true, new WatcherException("gone"))).isFalse();
    }
}
