package dev.muster.core.framework;

import dev.muster.core.model.Pod;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * A part of a pod that a plugin may read, one per component of {@link Pod} (its {@code ref} split into namespace and
 * name), each with the value two pods are compared by. A plugin names the ones its PreFilter, Filter, PreScore and
 * Score read ({@link Plugin#podFields()}); the pod signature, which decides when one pod's evaluation stands for
 * another's, compares the union over the profile (see {@link FrameworkRuntime#signedPodFields()}), the way upstream's
 * plugins each contribute the fragments of the signature they read.
 */
public enum PodField {
    NAMESPACE("ref", p -> p.ref().namespace()),
    /** The pod's name: its identity within a namespace. Two distinct pods of one namespace always differ here. */
    NAME("ref", p -> p.ref().name()),
    UID("uid", p -> p.pod().uid()),
    LABELS("labels", p -> p.pod().labels()),
    CREATION_TIME("creationEpochSec", null, p -> p.pod().creationEpochSec()),
    NODE_NAME("nodeName", p -> p.pod().nodeName()),
    PHASE("phase", p -> p.pod().phase()),
    SCHEDULER_NAME("schedulerName", p -> p.pod().schedulerName()),
    /**
     * The effective requests as the snapshot's dense vector ({@link PodInfo#requestVector()}), and so also the
     * non-zero cpu and memory scoring counts, which come from the same requests.
     */
    REQUESTS("requests", null) {
        @Override
        int hash(PodInfo p) {
            return Arrays.hashCode(p.requestVector());
        }

        @Override
        boolean same(PodInfo a, PodInfo b) {
            return Arrays.equals(a.requestVector(), b.requestVector());
        }
    },
    /** The priority as resolved ({@link PodInfo#priority()}: spec.priority, else its class's, else a default). */
    PRIORITY("priority", null, p -> p.priority()),
    PRIORITY_CLASS("priorityClassName", p -> p.pod().priorityClassName()),
    PREEMPTION_POLICY("preemptionPolicy", p -> p.pod().preemptionPolicy()),
    NODE_SELECTOR("nodeSelector", p -> p.pod().nodeSelector()),
    /** Node affinity and pod (anti-)affinity, required and preferred. */
    AFFINITY("affinity", p -> p.pod().affinity()),
    TOLERATIONS("tolerations", p -> p.pod().tolerations()),
    HOST_PORTS("hostPorts", p -> p.pod().hostPorts()),
    TOPOLOGY_SPREAD("topologySpreadConstraints", p -> p.pod().topologySpreadConstraints()),
    SCHEDULING_GATES("schedulingGates", p -> p.pod().schedulingGates()),
    /** The PodGroup the pod belongs to (with {@link #NAMESPACE}, its group reference). */
    POD_GROUP("podGroupName", p -> p.pod().podGroupName()),
    /** The claim entries of the pod spec (names and where each claim comes from), not the claims' specs. */
    RESOURCE_CLAIMS("resourceClaims", p -> p.pod().resourceClaims()),
    NOMINATED_NODE_NAME("nominatedNodeName", p -> p.pod().nominatedNodeName()),
    TERMINATING("terminating", p -> p.pod().terminating()),
    /** Which claim the controller made for each claim entry. */
    RESOURCE_CLAIM_STATUSES("resourceClaimStatuses", p -> p.pod().resourceClaimStatuses()),
    ROLE("role", p -> p.pod().role()),
    EXTENDED_REQUESTS("extendedRequests", p -> p.pod().extendedRequests()),
    EXTENDED_RESOURCE_CLAIM("extendedResourceClaim", p -> p.pod().extendedResourceClaim());

    /**
     * Every field: what a plugin that declares nothing is taken to read. Pods that differ in any field, so any two
     * distinct pods ({@link #NAME}, {@link #NAMESPACE}), then never share an evaluation.
     */
    public static final Set<PodField> ALL = Collections.unmodifiableSet(EnumSet.allOf(PodField.class));

    private final String component;
    private final Function<PodInfo, Object> value;
    private final ToLongFunction<PodInfo> number; // instead of value for a primitive, compared without boxing

    PodField(String component, Function<PodInfo, Object> value) {
        this(component, value, null);
    }

    PodField(String component, Function<PodInfo, Object> value, ToLongFunction<PodInfo> number) {
        this.component = component;
        this.value = value;
        this.number = number;
    }

    /** The name of the {@link Pod} record component this field is read from. */
    public String component() {
        return component;
    }

    int hash(PodInfo p) {
        return number != null ? Long.hashCode(number.applyAsLong(p)) : Objects.hashCode(value.apply(p));
    }

    boolean same(PodInfo a, PodInfo b) {
        return number != null ? number.applyAsLong(a) == number.applyAsLong(b)
                : Objects.equals(value.apply(a), value.apply(b));
    }
}
