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
final class PodDecoders {
    private PodDecoders() {
    }

    /** The decoder of a Pod, with its own decoders for what is under it. */
    static StreamingDecoders.TopDecoder<Kube.Pod, Kube.PodSpec, Kube.PodStatus> create(Values in,
            StreamingDecoders.MetaDecoder meta) {
        ResourcesDecoder resources = new ResourcesDecoder(in);
        PodSpecDecoder spec = new PodSpecDecoder(in, AffinityDecoders.create(in), new TolerationDecoder(in),
                new ContainerDecoder(in, resources, new PortDecoder(in)), resources, new SchedulingGroupDecoder(in));
        return new StreamingDecoders.TopDecoder<>(in, Kube.Pod.class, meta, spec, new PodStatusDecoder(in),
                Kube.Pod::new);
    }

    static final class PodSpecDecoder extends ObjectDecoder<Kube.PodSpec> {
        private final AffinityDecoders.AffinityDecoder affinityDecoder;
        private final TolerationDecoder tolerationDecoder;
        private final ContainerDecoder containerDecoder;
        private final ResourcesDecoder resourcesDecoder;
        private final SchedulingGroupDecoder schedulingGroupDecoder;
        private String nodeName;
        private String schedulerName;
        private Integer priority;
        private String priorityClassName;
        private String preemptionPolicy;
        private Map<String, String> nodeSelector;
        private Kube.Affinity affinity;
        private List<Kube.Toleration> tolerations;
        private List<Kube.Container> containers;
        private List<Kube.Container> initContainers;
        private Map<String, Qty> overhead;
        private Kube.Resources resources;
        private List<Kube.TopologySpreadConstraint> topologySpreadConstraints;
        private List<Kube.SchedulingGate> schedulingGates;
        private Kube.SchedulingGroup schedulingGroup;
        private List<Kube.ClaimRef> resourceClaims;

        PodSpecDecoder(Values in, AffinityDecoders.AffinityDecoder affinity, TolerationDecoder toleration,
                       ContainerDecoder container, ResourcesDecoder resources, SchedulingGroupDecoder schedulingGroup) {
            super(in, Kube.PodSpec.class);
            this.affinityDecoder = affinity;
            this.tolerationDecoder = toleration;
            this.containerDecoder = container;
            this.resourcesDecoder = resources;
            this.schedulingGroupDecoder = schedulingGroup;
        }

        @Override
        void reset() {
            nodeName = null;
            schedulerName = null;
            priority = null;
            priorityClassName = null;
            preemptionPolicy = null;
            nodeSelector = null;
            affinity = null;
            tolerations = null;
            containers = null;
            initContainers = null;
            overhead = null;
            resources = null;
            topologySpreadConstraints = null;
            schedulingGates = null;
            schedulingGroup = null;
            resourceClaims = null;
        }

        @Override
        boolean field(String f, JsonToken v) throws IOException {
            switch (f) {
                case "nodeName" -> nodeName = shared(v, f);
                case "schedulerName" -> schedulerName = shared(v, f);
                case "priority" -> priority = integer(v, f);
                case "priorityClassName" -> priorityClassName = shared(v, f);
                case "preemptionPolicy" -> preemptionPolicy = shared(v, f);
                case "nodeSelector" -> nodeSelector = stringMap(v, f);
                case "affinity" -> affinity = v == JsonToken.START_OBJECT
                        ? in.recalled(Values.AFFINITY, v, first -> affinityDecoder.read()) : other(v, f);
                case "tolerations" -> tolerations = in.recalled(Values.TOLERATIONS, v, first ->
                        in.sharedList(objects(first, f, Kube.Toleration.class, 4, tolerationDecoder)));
                case "containers" -> containers = in.recalled(Values.CONTAINERS, v, first ->
                        in.sharedList(objects(first, f, Kube.Container.class, 3, containerDecoder)));
                case "initContainers" -> initContainers = objects(v, f, Kube.Container.class, 3, containerDecoder);
                case "overhead" -> overhead = qtyMap(v, f);
                case "resources" -> resources = object(v, f, resourcesDecoder);
                case "topologySpreadConstraints" ->
                        topologySpreadConstraints = list(v, f, Kube.TopologySpreadConstraint.class);
                case "schedulingGates" -> schedulingGates = list(v, f, Kube.SchedulingGate.class);
                case "schedulingGroup" -> schedulingGroup = object(v, f, schedulingGroupDecoder);
                case "resourceClaims" -> resourceClaims = list(v, f, Kube.ClaimRef.class);
                default -> {
                    return false;
                }
            }
            return true;
        }

        @Override
        Kube.PodSpec build() {
            return new Kube.PodSpec(nodeName, schedulerName, priority, priorityClassName, preemptionPolicy,
                    nodeSelector, affinity, tolerations, containers, in.sharedList(initContainers), overhead, resources,
                    Values.frozen(topologySpreadConstraints), Values.frozen(schedulingGates), schedulingGroup,
                    Values.frozen(resourceClaims));
        }
    }

    static final class ContainerDecoder extends ObjectDecoder<Kube.Container> {
        private final ResourcesDecoder resourcesDecoder;
        private final PortDecoder portDecoder;
        private String name;
        private Kube.Resources resources;
        private List<Kube.ContainerPort> ports;
        private String restartPolicy;

        ContainerDecoder(Values in, ResourcesDecoder resources, PortDecoder port) {
            super(in, Kube.Container.class);
            this.resourcesDecoder = resources;
            this.portDecoder = port;
        }

        @Override
        void reset() {
            name = null;
            resources = null;
            ports = null;
            restartPolicy = null;
        }

        @Override
        boolean field(String f, JsonToken v) throws IOException {
            switch (f) {
                case "name" -> name = shared(v, f);
                case "resources" -> resources = object(v, f, resourcesDecoder);
                case "ports" -> ports = objects(v, f, Kube.ContainerPort.class, 1, portDecoder);
                case "restartPolicy" -> restartPolicy = shared(v, f);
                default -> {
                    return false;
                }
            }
            return true;
        }

        @Override
        Kube.Container build() {
            return in.canonical(new Kube.Container(name, resources, Values.frozen(ports), restartPolicy));
        }
    }

    static final class PortDecoder extends ObjectDecoder<Kube.ContainerPort> {
        private Integer containerPort;
        private Integer hostPort;
        private String protocol;
        private String hostIP;

        PortDecoder(Values in) {
            super(in, Kube.ContainerPort.class);
        }

        @Override
        void reset() {
            containerPort = null;
            hostPort = null;
            protocol = null;
            hostIP = null;
        }

        @Override
        boolean field(String f, JsonToken v) throws IOException {
            switch (f) {
                case "containerPort" -> containerPort = integer(v, f);
                case "hostPort" -> hostPort = integer(v, f);
                case "protocol" -> protocol = shared(v, f);
                case "hostIP" -> hostIP = shared(v, f);
                default -> {
                    return false;
                }
            }
            return true;
        }

        @Override
        Kube.ContainerPort build() {
            return new Kube.ContainerPort(containerPort, hostPort, protocol, hostIP);
        }
    }

    /** Of a container and of the pod (pod-level resources): the two are never read one inside the other. */
    static final class ResourcesDecoder extends ObjectDecoder<Kube.Resources> {
        private Map<String, Qty> requests;
        private Map<String, Qty> limits;

        ResourcesDecoder(Values in) {
            super(in, Kube.Resources.class);
        }

        @Override
        void reset() {
            requests = null;
            limits = null;
        }

        @Override
        boolean field(String f, JsonToken v) throws IOException {
            switch (f) {
                case "requests" -> requests = qtyMap(v, f);
                case "limits" -> limits = qtyMap(v, f);
                default -> {
                    return false;
                }
            }
            return true;
        }

        @Override
        Kube.Resources build() {
            return new Kube.Resources(requests, limits);
        }
    }

    static final class TolerationDecoder extends ObjectDecoder<Kube.Toleration> {
        private String key;
        private String operator;
        private String value;
        private String effect;
        private Long tolerationSeconds;

        TolerationDecoder(Values in) {
            super(in, Kube.Toleration.class);
        }

        @Override
        void reset() {
            key = null;
            operator = null;
            value = null;
            effect = null;
            tolerationSeconds = null;
        }

        @Override
        boolean field(String f, JsonToken v) throws IOException {
            switch (f) {
                case "key" -> key = shared(v, f);
                case "operator" -> operator = shared(v, f);
                case "value" -> value = shared(v, f);
                case "effect" -> effect = shared(v, f);
                case "tolerationSeconds" -> tolerationSeconds = longValue(v, f);
                default -> {
                    return false;
                }
            }
            return true;
        }

        @Override
        Kube.Toleration build() {
            return new Kube.Toleration(key, operator, value, effect, tolerationSeconds);
        }
    }

    /** Every pending member of a PodGroup has one: streamed, not bound by databind per pod. */
    static final class SchedulingGroupDecoder extends ObjectDecoder<Kube.SchedulingGroup> {
        private String podGroupName;

        SchedulingGroupDecoder(Values in) {
            super(in, Kube.SchedulingGroup.class);
        }

        @Override
        void reset() {
            podGroupName = null;
        }

        @Override
        boolean field(String f, JsonToken v) throws IOException {
            if (!f.equals("podGroupName")) {
                return false;
            }
            podGroupName = shared(v, f);
            return true;
        }

        @Override
        Kube.SchedulingGroup build() {
            return new Kube.SchedulingGroup(podGroupName);
        }
    }

    static final class PodStatusDecoder extends ObjectDecoder<Kube.PodStatus> {
        private String phase;
        private String nominatedNodeName;

        PodStatusDecoder(Values in) {
            super(in, Kube.PodStatus.class);
        }

        @Override
        void reset() {
            phase = null;
            nominatedNodeName = null;
        }

        @Override
        boolean field(String f, JsonToken v) throws IOException {
            switch (f) {
                case "phase" -> phase = shared(v, f);
                case "nominatedNodeName" -> nominatedNodeName = shared(v, f);
                default -> {
                    return false;
                }
            }
            return true;
        }

        @Override
        Kube.PodStatus build() {
            return in.canonical(new Kube.PodStatus(phase, nominatedNodeName));
        }
    }
}
