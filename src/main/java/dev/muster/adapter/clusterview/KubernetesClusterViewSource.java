package dev.muster.adapter.clusterview;

import dev.muster.adapter.cel.CelSelectors;
import dev.muster.adapter.kube.DecodeException;
import dev.muster.adapter.kube.DraMapper;
import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.KubeDra;
import dev.muster.adapter.kube.KubeMapper;
import dev.muster.core.dra.DraObjects;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodDisruptionBudget;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.PriorityClass;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.scheduling.v1alpha2.Workload;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * {@code muster.cluster-view.source=kubernetes}: fabric8 informers on Nodes, Pods, PodGroups and Workloads
 * (scheduling.k8s.io/v1alpha2), PriorityClasses, PodDisruptionBudgets and the resource.k8s.io/v1 DRA objects
 * (DeviceClasses and ResourceSlices cluster-wide, ResourceClaims and ResourceClaimTemplates in every namespace),
 * in-cluster (service account) or from a kubeconfig, as fabric8's auto-configuration finds them.
 * <p>
 * Each event converts the object once (fabric8's JSON, re-read with the strict lean {@link KubeCodec} records and
 * compiled by {@link KubeMapper}) into a per-kind map and bumps the generation; {@link #current()} assembles a
 * new {@link ClusterView} only when the generation moved, with every list sorted by key so the same cluster gives
 * the same view. An object that does not convert is logged and left out. A resource the server does not serve
 * (PodGroups on a cluster without scheduling.k8s.io/v1alpha2) is logged and stays empty.
 * Workloads are watched but not yet part of the engine's ClusterState.
 * <p>
 * DRA objects are kept as the lean {@link KubeDra} records (one that does not map, say a CEL selector that does not
 * compile, is logged and left out) and mapped into the view's {@link DraObjects} by {@link DraMapper} when a new
 * view is assembled. In extender mode kube-scheduler allocates the devices itself; Muster uses them to choose the
 * nodes only (see {@code ExtenderService}).
 */
public final class KubernetesClusterViewSource implements ClusterViewSource {
    private static final Logger LOG = Logger.getLogger(KubernetesClusterViewSource.class);

    private final KubernetesClient client;
    private final boolean ownsClient;
    private final KubeCodec codec = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private final AtomicLong changes = new AtomicLong();
    private final Map<String, Node> nodes = new ConcurrentHashMap<>();
    private final Map<String, Pod> pods = new ConcurrentHashMap<>();
    private final Map<String, PodGroup> podGroups = new ConcurrentHashMap<>();
    private final Map<String, Kube.Workload> workloads = new ConcurrentHashMap<>();
    private final Map<String, PriorityClass> priorityClasses = new ConcurrentHashMap<>();
    private final Map<String, PodDisruptionBudget> pdbs = new ConcurrentHashMap<>();
    private final Map<String, KubeDra.DeviceClass> deviceClasses = new ConcurrentHashMap<>();
    private final Map<String, KubeDra.ResourceSlice> resourceSlices = new ConcurrentHashMap<>();
    private final Map<String, KubeDra.ResourceClaim> resourceClaims = new ConcurrentHashMap<>();
    private final Map<String, KubeDra.ResourceClaimTemplate> resourceClaimTemplates = new ConcurrentHashMap<>();
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();
    private volatile ClusterView view = ClusterView.empty("kubernetes");

    private KubernetesClusterViewSource(KubernetesClient client, boolean ownsClient) {
        this.client = client;
        this.ownsClient = ownsClient;
    }

    /** Connects with fabric8's auto-configuration and starts the informers (returns before they have synced). */
    public static KubernetesClusterViewSource start() {
        return start(new KubernetesClientBuilder().build(), true);
    }

    public static KubernetesClusterViewSource start(KubernetesClient client, boolean ownsClient) {
        KubernetesClusterViewSource s = new KubernetesClusterViewSource(client, ownsClient);
        s.watch("nodes", client.nodes(), s.nodes, Kube.Node.class, KubeMapper::node);
        s.watch("pods", client.pods().inAnyNamespace(), s.pods, Kube.Pod.class, KubeMapper::pod);
        s.watch("podgroups.scheduling.k8s.io", client.resources(
                        io.fabric8.kubernetes.api.model.scheduling.v1alpha2.PodGroup.class).inAnyNamespace(),
                s.podGroups, Kube.PodGroup.class, KubeMapper::podGroup);
        s.watch("workloads.scheduling.k8s.io", client.resources(Workload.class).inAnyNamespace(), s.workloads,
                Kube.Workload.class, w -> w);
        s.watch("priorityclasses.scheduling.k8s.io", client.scheduling().v1().priorityClasses(), s.priorityClasses,
                Kube.PriorityClass.class, KubeMapper::priorityClass);
        s.watch("poddisruptionbudgets.policy", client.policy().v1().podDisruptionBudget().inAnyNamespace(), s.pdbs,
                Kube.PodDisruptionBudget.class, KubeMapper::pdb);
        s.watch("deviceclasses.resource.k8s.io", client.resources(DeviceClass.class), s.deviceClasses,
                KubeDra.DeviceClass.class, c -> mapsAlone(c, draMapper().map(List.of(c), null, null, null)));
        s.watch("resourceslices.resource.k8s.io", client.resources(ResourceSlice.class), s.resourceSlices,
                KubeDra.ResourceSlice.class, x -> mapsAlone(x, draMapper().map(null, List.of(x), null, null)));
        s.watch("resourceclaims.resource.k8s.io", client.resources(ResourceClaim.class).inAnyNamespace(),
                s.resourceClaims, KubeDra.ResourceClaim.class,
                x -> mapsAlone(x, draMapper().map(null, null, List.of(x), null)));
        s.watch("resourceclaimtemplates.resource.k8s.io",
                client.resources(ResourceClaimTemplate.class).inAnyNamespace(), s.resourceClaimTemplates,
                KubeDra.ResourceClaimTemplate.class, x -> mapsAlone(x, draMapper().map(null, null, null, List.of(x))));
        return s;
    }

    private static DraMapper draMapper() {
        return new DraMapper(CelSelectors.shared()::compile);
    }

    /**
     * Keeps the lean object once it mapped on its own (the mapping throws when it cannot), so one bad object is left
     * out instead of spoiling every later view.
     */
    private static <T> T mapsAlone(T lean, DraObjects mapped) {
        return lean;
    }

    private <T extends HasMetadata, K, V> void watch(String what, Informable<T> resource, Map<String, V> store,
                                                     Class<K> lean, Function<K, V> compile) {
        SharedIndexInformer<T> informer = resource.runnableInformer(0);
        informer.addEventHandler(new ResourceEventHandler<T>() {
            @Override
            public void onAdd(T obj) {
                put(obj);
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
                put(newObj);
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                if (store.remove(key(obj)) != null) {
                    changes.incrementAndGet();
                }
            }

            private void put(T obj) {
                String key = key(obj);
                try {
                    byte[] json = client.getKubernetesSerialization().asJson(obj).getBytes(StandardCharsets.UTF_8);
                    store.put(key, compile.apply(codec.readJson(json, lean)));
                } catch (DecodeException | RuntimeException e) {
                    LOG.warnf("cluster view: %s %s left out: %s", what, key, e.getMessage());
                    store.remove(key);
                }
                changes.incrementAndGet();
            }
        });
        informers.add(informer);
        informer.start().whenComplete((v, e) -> {
            if (e != null) {
                LOG.warnf("cluster view: cannot watch %s (%s); the view has none of them", what, e.getMessage());
            } else {
                LOG.debugf("cluster view: %s synced", what);
            }
        });
    }

    private static String key(HasMetadata o) {
        String ns = o.getMetadata().getNamespace();
        return ns == null || ns.isEmpty() ? o.getMetadata().getName() : ns + "/" + o.getMetadata().getName();
    }

    /** True once every informer finished its initial list. */
    public boolean synced() {
        for (SharedIndexInformer<?> i : informers) {
            if (!i.hasSynced()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public ClusterView current() {
        long gen = changes.get();
        ClusterView v = view;
        if (v.generation() == gen) {
            return v;
        }
        synchronized (this) {
            v = view;
            gen = changes.get();
            if (v.generation() != gen) {
                ClusterState state = new ClusterState(sorted(nodes), sorted(pods), sorted(podGroups),
                        sorted(priorityClasses), sorted(pdbs));
                DraObjects dra = draMapper().map(sorted(deviceClasses), sorted(resourceSlices),
                        sorted(resourceClaims), sorted(resourceClaimTemplates));
                v = ClusterView.of(gen, state, dra, "kubernetes");
                view = v;
            }
            return v;
        }
    }

    private static <V> List<V> sorted(Map<String, V> store) {
        return new ArrayList<>(new TreeMap<>(store).values());
    }

    /** Workloads seen (not yet compiled into the engine's state). */
    public int workloadCount() {
        return workloads.size();
    }

    @Override
    public Optional<PodBinder> binder() {
        return Optional.of((namespace, name, uid, node) -> client.bindings().inNamespace(namespace)
                .resource(new BindingBuilder()
                        .withNewMetadata().withNamespace(namespace).withName(name)
                        .withUid(uid == null || uid.isEmpty() ? null : uid).endMetadata()
                        .withNewTarget().withApiVersion("v1").withKind("Node").withName(node).endTarget()
                        .build())
                .create());
    }

    @Override
    public void close() {
        for (SharedIndexInformer<?> i : informers) {
            i.stop();
        }
        if (ownsClient) {
            client.close();
        }
    }
}
