package dev.muster.core.dra;

import dev.muster.core.model.ExtendedRequest;
import dev.muster.core.model.Pod;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The claim kube-scheduler makes for a pod's extended-resource requests that a DeviceClass backs (DRAExtendedResource,
 * on by default since 1.36): one claim per pod, with one ExactCount request per container and resource, named
 * {@code container-<container index>-request-<index of the resource among the container's sorted request names>}.
 * An init container that is not a sidecar first reuses the devices of the containers that run after it (sidecars
 * declared later, then regular containers) and asks only for what they lack; of those init containers only the largest
 * request is kept. Requests are sorted by name. A node that advertises the resource in its own allocatable (a device
 * plugin) serves it there, so the claim asks only for the resources the node lacks.
 */
public final class ExtendedResourceClaim {
    /** The entry part of the claim's name: {@code <pod>-extended-resources}. */
    public static final String ENTRY = "extended-resources";

    private ExtendedResourceClaim() {
    }

    /**
     * The claim spec for the requests whose resource a class backs and {@code viaDevices} accepts, or null when none
     * is left.
     */
    public static ResourceClaimSpec spec(List<ExtendedRequest> requests, Function<String, DeviceClass> classes,
                                         Predicate<String> viaDevices) {
        TreeMap<String, List<ExtendedRequest>> byResource = new TreeMap<>();
        for (ExtendedRequest r : requests) {
            if (classes.apply(r.resource()) != null && viaDevices.test(r.resource())) {
                byResource.computeIfAbsent(r.resource(), k -> new ArrayList<>()).add(r);
            }
        }
        if (byResource.isEmpty()) {
            return null;
        }
        List<ResourceClaimSpec.Request> out = new ArrayList<>();
        for (var e : byResource.entrySet()) {
            String className = classes.apply(e.getKey()).name();
            List<ExtendedRequest> longLived = new ArrayList<>();
            for (ExtendedRequest r : e.getValue()) {
                if (!r.shortLived()) {
                    longLived.add(r);
                }
            }
            ExtendedRequest largestInit = null;
            long largestInitCount = 0;
            for (ExtendedRequest r : e.getValue()) {
                if (!r.shortLived()) {
                    continue;
                }
                long reused = 0;
                for (ExtendedRequest l : longLived) {
                    if (l.container() >= r.container() && reused < r.count()) {
                        reused += l.count();
                    }
                }
                long own = r.count() - reused;
                if (own > 0 && (largestInit == null || own > largestInitCount)) {
                    largestInit = r;
                    largestInitCount = own;
                }
            }
            if (largestInit != null) {
                out.add(request(largestInit, className, largestInitCount));
            }
            for (ExtendedRequest l : longLived) {
                out.add(request(l, className, l.count()));
            }
        }
        out.sort(Comparator.comparing(ResourceClaimSpec.Request::name));
        return new ResourceClaimSpec(out, null, null);
    }

    /** The extended resources the classes serve: each class's implicit name, and its explicit one if set. */
    public static Set<String> servedResources(List<DeviceClass> classes) {
        if (classes.isEmpty()) {
            return Set.of();
        }
        Set<String> out = new HashSet<>();
        for (DeviceClass c : classes) {
            out.add(DeviceClass.IMPLICIT_PREFIX + c.name());
            if (c.extendedResourceName() != null) {
                out.add(c.extendedResourceName());
            }
        }
        return out;
    }

    /**
     * The pod with only the extended-resource requests some class serves: the others are a device plugin's, which
     * NodeResourcesFit counts like cpu, and they must not make the pod look like one that needs devices.
     */
    public static Pod servedOnly(Pod pod, Set<String> served) {
        if (pod.extendedRequests().isEmpty()) {
            return pod;
        }
        List<ExtendedRequest> kept = new ArrayList<>();
        for (ExtendedRequest r : pod.extendedRequests()) {
            if (served.contains(r.resource())) {
                kept.add(r);
            }
        }
        return kept.size() == pod.extendedRequests().size() ? pod : pod.withExtendedRequests(kept);
    }

    /**
     * Why a pending pod whose extended-resource claim already exists cannot be scheduled: the claim is left from an
     * earlier attempt whose binding failed. kube-scheduler neither reuses nor re-allocates it; it reports the
     * pod unschedulable on every node, deletes the claim (PostFilter), and starts anew once it is gone.
     */
    public static String stale(String claimName) {
        return "cannot schedule extended resource claim: resourceclaim \"" + claimName
                + "\" is left from an earlier scheduling attempt and must be deleted first";
    }

    /**
     * The use of the claim that holds a bound pod's extended-resource devices, as it is (its own spec and allocation).
     * Not checked for reservability: it is the pod's own.
     */
    static ClaimBook.ClaimUse held(Pod pod, ResourceClaim c) {
        return new ClaimBook.ClaimUse(c.key(), null, c.spec(), ClaimConsumer.pod(pod.ref().name(), pod.uid()),
                pod.extendedRequests());
    }

    private static ResourceClaimSpec.Request request(ExtendedRequest r, String className, long count) {
        return ResourceClaimSpec.Request.exactly("container-" + r.container() + "-request-" + r.keyIndex(),
                ResourceClaimSpec.ExactRequest.of(className, count));
    }
}
