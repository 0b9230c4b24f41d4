package dev.muster.adapter.clusterview;

import dev.muster.adapter.cel.CelSelectors;
import dev.muster.adapter.kube.DecodeException;
import dev.muster.adapter.kube.DraMapper;
import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.KubeDra;
import dev.muster.adapter.kube.KubeMapper;
import dev.muster.core.dra.DraObjects;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.scheduling.v1alpha2.Workload;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * {@code muster.cluster-view.source=kubernetes}: fabric8 informers on Nodes, Pods, PodGroups and Workloads
 * (scheduling.k8s.io/v1alpha2), PriorityClasses, PodDisruptionBudgets and the resource.k8s.io/v1 DRA objects
 * (DeviceClasses and ResourceSlices cluster-wide, ResourceClaims and ResourceClaimTemplates in every namespace),
 * in-cluster (service account) or from a kubeconfig, as fabric8's auto-configuration finds them.
 * <p>
 * Each event converts the object once (fabric8's JSON, re-read with the strict lean {@link KubeCodec} records and
 * compiled by {@link KubeMapper}) into the {@link ViewStore}'s sorted per-kind map and bumps the generation;
 * {@link #current()} assembles a new {@link WatchedClusterVersion} only when the generation moved, every list in key
 * order so the same cluster gives the same view. An object that does not convert is logged and left out. A resource the server does not serve
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

    // the kinds watched, as resource.group (core kinds without a group); k8s/rbac.yaml must grant get, list, watch
    static final String NODES = "nodes";
    static final String PODS = "pods";
    static final String PODGROUPS = "podgroups.scheduling.k8s.io";
    static final String WORKLOADS = "workloads.scheduling.k8s.io";
    static final String PRIORITY_CLASSES = "priorityclasses.scheduling.k8s.io";
    static final String PDBS = "poddisruptionbudgets.policy";
    static final String DEVICE_CLASSES = "deviceclasses.resource.k8s.io";
    static final String RESOURCE_SLICES = "resourceslices.resource.k8s.io";
    static final String RESOURCE_CLAIMS = "resourceclaims.resource.k8s.io";
    static final String RESOURCE_CLAIM_TEMPLATES = "resourceclaimtemplates.resource.k8s.io";

    /** Every kind this source watches, as {@code resource} or {@code resource.group}, in watch order. */
    public static final List<String> WATCHED = List.of(NODES, PODS, PODGROUPS, WORKLOADS, PRIORITY_CLASSES, PDBS,
            DEVICE_CLASSES, RESOURCE_SLICES, RESOURCE_CLAIMS, RESOURCE_CLAIM_TEMPLATES);

    private final KubernetesClient client;
    private final boolean ownsClient;
    private final KubeCodec codec = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private final ViewStore store = new ViewStore("kubernetes", this::dra);
    private final Map<String, Kube.Workload> workloads = new ConcurrentHashMap<>();
    private final Map<String, KubeDra.DeviceClass> deviceClasses = new ConcurrentHashMap<>();
    private final Map<String, KubeDra.ResourceSlice> resourceSlices = new ConcurrentHashMap<>();
    private final Map<String, KubeDra.ResourceClaim> resourceClaims = new ConcurrentHashMap<>();
    private final Map<String, KubeDra.ResourceClaimTemplate> resourceClaimTemplates = new ConcurrentHashMap<>();
    private final Map<String, SharedIndexInformer<?>> informers = new java.util.LinkedHashMap<>();
    /** Kinds the server does not serve (404 on the initial list): settled, and empty in the view. */
    private final Set<String> notServed = ConcurrentHashMap.newKeySet();

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
        ViewStore v = s.store;
        s.watch(NODES, client.nodes(), v::putNode, v::removeNode, Kube.Node.class, KubeMapper::node);
        s.watch(PODS, client.pods().inAnyNamespace(), v::putPod, v::removePod, Kube.Pod.class, KubeMapper::pod);
        s.watch(PODGROUPS, client.resources(
                        io.fabric8.kubernetes.api.model.scheduling.v1alpha2.PodGroup.class).inAnyNamespace(),
                v::putPodGroup, v::removePodGroup, Kube.PodGroup.class, KubeMapper::podGroup);
        s.watch(WORKLOADS, client.resources(Workload.class).inAnyNamespace(), s.workloads,
                Kube.Workload.class, w -> w);
        s.watch(PRIORITY_CLASSES, client.scheduling().v1().priorityClasses(), v::putPriorityClass,
                v::removePriorityClass, Kube.PriorityClass.class, KubeMapper::priorityClass);
        s.watch(PDBS, client.policy().v1().podDisruptionBudget().inAnyNamespace(), v::putPdb, v::removePdb,
                Kube.PodDisruptionBudget.class, KubeMapper::pdb);
        s.watch(DEVICE_CLASSES, client.resources(DeviceClass.class), s.deviceClasses,
                KubeDra.DeviceClass.class, c -> mapsAlone(c, draMapper().map(List.of(c), null, null, null)));
        s.watch(RESOURCE_SLICES, client.resources(ResourceSlice.class), s.resourceSlices,
                KubeDra.ResourceSlice.class, x -> mapsAlone(x, draMapper().map(null, List.of(x), null, null)));
        s.watch(RESOURCE_CLAIMS, client.resources(ResourceClaim.class).inAnyNamespace(),
                s.resourceClaims, KubeDra.ResourceClaim.class,
                x -> mapsAlone(x, draMapper().map(null, null, List.of(x), null)));
        s.watch(RESOURCE_CLAIM_TEMPLATES,
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

    /** A kind kept in a map of its own (Workloads, DRA objects): each change is reported to the store. */
    private <T extends HasMetadata, K, V> void watch(String what, Informable<T> resource, Map<String, V> map,
                                                     Class<K> lean, Function<K, V> compile) {
        watch(what, resource, (key, value) -> {
            map.put(key, value);
            store.touch();
        }, key -> {
            if (map.remove(key) != null) {
                store.touch();
            }
        }, lean, compile);
    }

    private <T extends HasMetadata, K, V> void watch(String what, Informable<T> resource, BiConsumer<String, V> put,
                                                     Consumer<String> remove, Class<K> lean, Function<K, V> compile) {
        SharedIndexInformer<T> informer = resource.runnableInformer(0);
        informer.exceptionHandler(KubernetesClusterViewSource::retry);
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
                remove.accept(key(obj));
            }

            private void put(T obj) {
                String key = key(obj);
                try {
                    byte[] json = client.getKubernetesSerialization().asJson(obj).getBytes(StandardCharsets.UTF_8);
                    put.accept(key, compile.apply(codec.readJson(json, lean)));
                } catch (DecodeException | RuntimeException e) {
                    LOG.warnf("cluster view: %s %s left out: %s", what, key, e.getMessage());
                    remove.accept(key);
                }
            }
        });
        informers.put(what, informer);
        informer.start().whenComplete((v, e) -> {
            if (e != null) {
                if (notFound(e)) {
                    notServed.add(what);
                }
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

    /**
     * Whether an informer tries again after {@code e}. fabric8's default gives up on a kind whose initial list fails,
     * which would leave the view without, say, every pod, and the pod unready for good after a transient error at
     * startup (API server restarting, RBAC applied a moment later). Here the initial list is retried until it
     * succeeds, except for a kind the server does not serve (404), which settles as empty. After the initial list,
     * fabric8's default: retry, except a watch error the informer cannot recover from.
     */
    static boolean retry(boolean started, Throwable e) {
        if (started) {
            return !(e instanceof WatcherException);
        }
        return !notFound(e);
    }

    private static boolean notFound(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof KubernetesClientException k && k.getCode() == 404) {
                return true;
            }
        }
        return false;
    }

    /**
     * The kinds whose informer has not finished its initial list, in watch order. A kind the server does not serve
     * (404, say PodGroups on a cluster without scheduling.k8s.io/v1alpha2) counts as done: its list stays empty.
     * Any other failure of the initial list is retried ({@link #retry}) and keeps the kind here meanwhile, so
     * readiness reports it instead of serving a view without, say, the cluster's pods.
     */
    @Override
    public List<String> notSynced() {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, SharedIndexInformer<?>> e : informers.entrySet()) {
            if (!e.getValue().hasSynced() && !notServed.contains(e.getKey())) {
                out.add(e.getKey());
            }
        }
        return out;
    }

    /** Kinds the API server answered 404 for: watched as empty. */
    public Set<String> notServed() {
        return new TreeSet<>(notServed);
    }

    @Override
    public WatchedClusterVersion current() {
        return store.current();
    }

    @Override
    public long latestGeneration() {
        return store.changes();
    }

    /** The DRA objects for a new view, each list in key order. */
    private DraObjects dra() {
        return draMapper().map(sorted(deviceClasses), sorted(resourceSlices), sorted(resourceClaims),
                sorted(resourceClaimTemplates));
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
        for (SharedIndexInformer<?> i : informers.values()) {
            i.stop();
        }
        if (ownsClient) {
            client.close();
        }
    }
}
