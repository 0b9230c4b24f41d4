package dev.muster.adapter.kube;

import java.util.List;

/**
 * The gang API shapes a snapshot may carry, by {@code apiVersion}. An object without {@code apiVersion} is taken as
 * the 1.36 shape ({@code scheduling.k8s.io/v1alpha2}), the Kubernetes version Muster follows.
 */
public enum GangShape {
    /** Kubernetes 1.35: Workloads with embedded pod groups; pods join by {@code spec.workloadRef}. */
    K8S_V1ALPHA1("scheduling.k8s.io/v1alpha1"),
    /** Kubernetes 1.36. */
    K8S_V1ALPHA2("scheduling.k8s.io/v1alpha2"),
    /** Kubernetes 1.37 development: {@code workloadRef}, struct {@code disruptionMode}, {@code preemptionPolicy}. */
    K8S_V1ALPHA3("scheduling.k8s.io/v1alpha3"),
    K8S_V1BETA1("scheduling.k8s.io/v1beta1"),
    /** Volcano: pods join by annotation {@value #VOLCANO_GROUP_ANNOTATION}. */
    VOLCANO("scheduling.volcano.sh/v1beta1"),
    /** scheduler-plugins coscheduling: pods join by label {@value #COSCHEDULING_GROUP_LABEL}. */
    COSCHEDULING("scheduling.x-k8s.io/v1alpha1");

    public static final String VOLCANO_GROUP_ANNOTATION = "scheduling.k8s.io/group-name";
    public static final String COSCHEDULING_GROUP_LABEL = "scheduling.x-k8s.io/pod-group";
    /** The pod annotation that names a Volcano pod's task (its role for {@code minTaskMember}). */
    public static final String VOLCANO_TASK_ANNOTATION = "volcano.sh/task-spec";

    /** The apiVersions accepted in {@code snapshot.podGroups}, in the order error messages list them. */
    public static final List<String> POD_GROUP_VERSIONS = List.of(K8S_V1ALPHA2.apiVersion, K8S_V1ALPHA3.apiVersion,
            K8S_V1BETA1.apiVersion, VOLCANO.apiVersion, COSCHEDULING.apiVersion);
    /** The apiVersions accepted in {@code snapshot.workloads}. */
    public static final List<String> WORKLOAD_VERSIONS = List.of(K8S_V1ALPHA1.apiVersion, K8S_V1ALPHA2.apiVersion,
            K8S_V1ALPHA3.apiVersion, K8S_V1BETA1.apiVersion);

    private final String apiVersion;

    GangShape(String apiVersion) {
        this.apiVersion = apiVersion;
    }

    public String apiVersion() {
        return apiVersion;
    }

    /** The shape of {@code apiVersion} (absent: v1alpha2), or null for one no shape has. */
    public static GangShape of(String apiVersion) {
        if (apiVersion == null || apiVersion.isEmpty()) {
            return K8S_V1ALPHA2;
        }
        for (GangShape s : values()) {
            if (s.apiVersion.equals(apiVersion)) {
                return s;
            }
        }
        return null;
    }

    /** The 1.37 shapes: {@code workloadRef}, {@code disruptionMode} as a struct. */
    public boolean isK8sBeta() {
        return this == K8S_V1ALPHA3 || this == K8S_V1BETA1;
    }

    /** Volcano or coscheduling: {@code minMember}, {@code minResources}. */
    public boolean isThirdParty() {
        return this == VOLCANO || this == COSCHEDULING;
    }

    /** The shape of a PodGroup, or null when its apiVersion is not accepted for PodGroups. */
    public static GangShape ofPodGroup(Kube.PodGroup g) {
        GangShape s = of(g.apiVersion());
        return s == K8S_V1ALPHA1 ? null : s;
    }

    /** The shape of a Workload, or null when its apiVersion is not accepted for Workloads. */
    public static GangShape ofWorkload(Kube.Workload w) {
        GangShape s = of(w.apiVersion());
        return s == null || s.isThirdParty() ? null : s;
    }
}
