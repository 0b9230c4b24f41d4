package dev.muster.adapter.kube;

import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The decoders of a {@link Kube.Pod}'s spec and status and everything under them but the affinity
 * ({@link AffinityDecoders}). Equal containers, container and toleration lists and pod statuses are shared within the
 * request, and tolerations, containers and affinities that repeat byte for byte are recalled (pods of one workload
 * are alike).
 */
final class PodDecoders extends RecordReader {
    // each read made once per request, so that reading allocates none
    final FieldReader.ObjectBody<Kube.PodSpec> spec = this::spec;
    final FieldReader.ObjectBody<Kube.PodStatus> status = this::status;
    private final FieldReader.ObjectBody<Kube.Toleration> toleration = this::toleration;
    private final FieldReader.ObjectBody<Kube.Container> container = this::container;
    private final FieldReader.ObjectBody<Kube.ContainerPort> port = this::port;
    private final FieldReader.ObjectBody<Kube.Resources> resources = this::resources;
    private final FieldReader.ObjectBody<Kube.SchedulingGroup> schedulingGroup = this::schedulingGroup;
    private final FieldReader.ObjectBody<Kube.PodWorkloadRef> workloadRef = this::workloadRef;
    private final FieldReader.ObjectBody<Kube.ClaimRef> claimRef = this::claimRef;
    private final FieldReader.ObjectBody<Kube.ClaimStatus> claimStatus = this::claimStatus;
    private final FieldReader.ValueBody<List<Kube.Toleration>> tolerationList = (v, f) ->
            in.sharedList(in.objects(v, f, Kube.PodSpec.class, Kube.Toleration.class, 4, toleration));
    private final FieldReader.ValueBody<List<Kube.Container>> containerList = (v, f) ->
            in.sharedList(in.objects(v, f, Kube.PodSpec.class, Kube.Container.class, 3, container));
    private final FieldReader.ValueBody<Kube.Affinity> affinity;

    PodDecoders(FieldReader in) {
        super(in);
        AffinityDecoders affinities = new AffinityDecoders(in);
        this.affinity = (v, f) -> affinities.affinity();
    }

    private Kube.PodSpec spec() throws IOException {
        Class<?> r = Kube.PodSpec.class;
        String nodeName = null;
        String schedulerName = null;
        Integer priority = null;
        String priorityClassName = null;
        String preemptionPolicy = null;
        Map<String, String> nodeSelector = null;
        Kube.Affinity podAffinity = null;
        List<Kube.Toleration> tolerations = null;
        List<Kube.Container> containers = null;
        List<Kube.Container> initContainers = null;
        Map<String, Qty> overhead = null;
        Kube.Resources podResources = null;
        List<Kube.TopologySpreadConstraint> topologySpreadConstraints = null;
        List<Kube.SchedulingGate> schedulingGates = null;
        Kube.SchedulingGroup group = null;
        List<Kube.ClaimRef> resourceClaims = null;
        Kube.PodWorkloadRef podWorkloadRef = null;
        for (String f = in.first(); f != null; f = in.next()) {
            switch (f) {
                case "nodeName" -> nodeName = shared(f, r);
                case "schedulerName" -> schedulerName = shared(f, r);
                case "priority" -> priority = integer(f, r);
                case "priorityClassName" -> priorityClassName = shared(f, r);
                case "preemptionPolicy" -> preemptionPolicy = shared(f, r);
                case "nodeSelector" -> nodeSelector = stringMap(f, r);
                case "affinity" -> podAffinity = in.value() == JsonToken.START_OBJECT
                        ? recalled(f, r, FieldReader.AFFINITY, affinity) : other(f, r);
                case "tolerations" -> tolerations = recalled(f, r, FieldReader.TOLERATIONS, tolerationList);
                case "containers" -> containers = recalled(f, r, FieldReader.CONTAINERS, containerList);
                case "initContainers" -> initContainers = objects(f, r, Kube.Container.class, 3, container);
                case "overhead" -> overhead = qtyMap(f, r);
                case "resources" -> podResources = object(f, r, resources);
                case "topologySpreadConstraints" ->
                        topologySpreadConstraints = list(f, r, Kube.TopologySpreadConstraint.class);
                case "schedulingGates" -> schedulingGates = list(f, r, Kube.SchedulingGate.class);
                case "schedulingGroup" -> group = object(f, r, schedulingGroup);
                case "resourceClaims" -> resourceClaims = objects(f, r, Kube.ClaimRef.class, 1, claimRef);
                case "workloadRef" -> podWorkloadRef = object(f, r, workloadRef);
                default -> in.skip();
            }
        }
        return new Kube.PodSpec(nodeName, schedulerName, priority, priorityClassName, preemptionPolicy, nodeSelector,
                podAffinity, tolerations, containers, in.sharedList(initContainers), overhead, podResources,
                FieldReader.frozen(topologySpreadConstraints), FieldReader.frozen(schedulingGates), group,
                FieldReader.frozen(resourceClaims), podWorkloadRef);
    }

    private Kube.Container container() throws IOException {
        Class<?> r = Kube.Container.class;
        String name = null;
        Kube.Resources containerResources = null;
        List<Kube.ContainerPort> ports = null;
        String restartPolicy = null;
        for (String f = in.first(); f != null; f = in.next()) {
            switch (f) {
                case "name" -> name = shared(f, r);
                case "resources" -> containerResources = object(f, r, resources);
                case "ports" -> ports = objects(f, r, Kube.ContainerPort.class, 1, port);
                case "restartPolicy" -> restartPolicy = shared(f, r);
                default -> in.skip();
            }
        }
        return in.canonical(new Kube.Container(name, containerResources, FieldReader.frozen(ports), restartPolicy));
    }

    /** Every pending member of a PodGroup has one: streamed, not bound by databind per pod. */
    private Kube.SchedulingGroup schedulingGroup() throws IOException {
        String podGroupName = null;
        for (String f = in.first(); f != null; f = in.next()) {
            if (f.equals("podGroupName")) {
                podGroupName = shared(f, Kube.SchedulingGroup.class);
            } else {
                in.skip();
            }
        }
        return new Kube.SchedulingGroup(podGroupName);
    }

    /** The 1.35 member reference: streamed like {@code schedulingGroup}, every member of such a group has one. */
    private Kube.PodWorkloadRef workloadRef() throws IOException {
        Class<?> r = Kube.PodWorkloadRef.class;
        String name = null;
        String podGroup = null;
        String replicaKey = null;
        for (String f = in.first(); f != null; f = in.next()) {
            switch (f) {
                case "name" -> name = shared(f, r);
                case "podGroup" -> podGroup = shared(f, r);
                case "podGroupReplicaKey" -> replicaKey = shared(f, r);
                default -> in.skip();
            }
        }
        return new Kube.PodWorkloadRef(name, podGroup, replicaKey);
    }

    private Kube.ContainerPort port() throws IOException {
        Class<?> r = Kube.ContainerPort.class;
        Integer containerPort = null;
        Integer hostPort = null;
        String protocol = null;
        String hostIP = null;
        for (String f = in.first(); f != null; f = in.next()) {
            switch (f) {
                case "containerPort" -> containerPort = integer(f, r);
                case "hostPort" -> hostPort = integer(f, r);
                case "protocol" -> protocol = shared(f, r);
                case "hostIP" -> hostIP = shared(f, r);
                default -> in.skip();
            }
        }
        return new Kube.ContainerPort(containerPort, hostPort, protocol, hostIP);
    }

    private Kube.Resources resources() throws IOException {
        Class<?> r = Kube.Resources.class;
        Map<String, Qty> requests = null;
        Map<String, Qty> limits = null;
        for (String f = in.first(); f != null; f = in.next()) {
            switch (f) {
                case "requests" -> requests = qtyMap(f, r);
                case "limits" -> limits = qtyMap(f, r);
                default -> in.skip();
            }
        }
        return new Kube.Resources(requests, limits);
    }

    private Kube.Toleration toleration() throws IOException {
        Class<?> r = Kube.Toleration.class;
        String key = null;
        String operator = null;
        String value = null;
        String effect = null;
        Long tolerationSeconds = null;
        for (String f = in.first(); f != null; f = in.next()) {
            switch (f) {
                case "key" -> key = shared(f, r);
                case "operator" -> operator = shared(f, r);
                case "value" -> value = shared(f, r);
                case "effect" -> effect = shared(f, r);
                case "tolerationSeconds" -> tolerationSeconds = longValue(f, r);
                default -> in.skip();
            }
        }
        return new Kube.Toleration(key, operator, value, effect, tolerationSeconds);
    }

    /**
     * A pod's claim entry, streamed: every pod made from one template has an entry of the same name naming the same
     * template, so both are shared strings (the claim a pod names itself is its own).
     */
    private Kube.ClaimRef claimRef() throws IOException {
        Class<?> r = Kube.ClaimRef.class;
        String name = null;
        String claim = null;
        String template = null;
        for (String f = in.first(); f != null; f = in.next()) {
            switch (f) {
                case "name" -> name = shared(f, r);
                case "resourceClaimName" -> claim = string(f, r);
                case "resourceClaimTemplateName" -> template = shared(f, r);
                default -> in.skip();
            }
        }
        return new Kube.ClaimRef(name, claim, template);
    }

    /** Which claim the controller made for an entry: the entry's name shared, the claim's its own. */
    private Kube.ClaimStatus claimStatus() throws IOException {
        Class<?> r = Kube.ClaimStatus.class;
        String name = null;
        String claim = null;
        for (String f = in.first(); f != null; f = in.next()) {
            switch (f) {
                case "name" -> name = shared(f, r);
                case "resourceClaimName" -> claim = string(f, r);
                default -> in.skip();
            }
        }
        return new Kube.ClaimStatus(name, claim);
    }

    private Kube.PodStatus status() throws IOException {
        Class<?> r = Kube.PodStatus.class;
        String phase = null;
        String nominatedNodeName = null;
        List<Kube.ClaimStatus> claimStatuses = null;
        Kube.ExtendedClaimStatus extendedClaim = null;
        for (String f = in.first(); f != null; f = in.next()) {
            switch (f) {
                case "phase" -> phase = shared(f, r);
                case "nominatedNodeName" -> nominatedNodeName = shared(f, r);
                case "resourceClaimStatuses" -> claimStatuses = objects(f, r, Kube.ClaimStatus.class, 1, claimStatus);
                case "extendedResourceClaimStatus" -> extendedClaim = other(f, r);
                default -> in.skip();
            }
        }
        return in.canonical(new Kube.PodStatus(phase, nominatedNodeName, FieldReader.frozen(claimStatuses),
                extendedClaim));
    }
}
