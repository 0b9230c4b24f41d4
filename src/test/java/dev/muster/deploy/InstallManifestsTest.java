package dev.muster.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.muster.adapter.clusterview.KubernetesClusterViewSource;
import dev.muster.adapter.extender.ExtenderResource;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.fabric8.kubernetes.api.model.scheduling.v1alpha2.PodGroup;
import io.fabric8.kubernetes.api.model.scheduling.v1alpha2.Workload;
import jakarta.ws.rs.POST;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static dev.muster.deploy.Manifests.ROOT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@code kubectl apply -k k8s/} installs fits together: every manifest parses into typed objects, the
 * kustomizations list every file in an order that creates namespaces first, the Service reaches the port the
 * application listens on, the probes ask paths the application serves, the scheduler's extender stanza reaches the
 * Service and names verbs the extender serves, RBAC grants what the cluster view watches and what the scheduler's
 * leader election needs, and the example gang names the scheduler's profile.
 */
class InstallManifestsTest {
    private static final Path MAIN = ROOT.resolve("kustomization.yaml");
    private static final Path EXAMPLES = ROOT.resolve("examples").resolve("kustomization.yaml");
    private static final Set<String> CLUSTER_NAMESPACES = Set.of("kube-system", "default");

    private final List<HasMetadata> installed = Manifests.resources(MAIN);

    private Deployment muster() {
        return Manifests.one(installed, Deployment.class, "muster");
    }

    private Deployment scheduler() {
        return Manifests.one(installed, Deployment.class, "muster-scheduler");
    }

    private Service service() {
        return Manifests.one(installed, Service.class, "muster");
    }

    private static Container container(Deployment d) {
        assertThat(d.getSpec().getTemplate().getSpec().getContainers()).hasSize(1);
        return d.getSpec().getTemplate().getSpec().getContainers().get(0);
    }

    /** The scheduler's configuration: the file the ConfigMap generator reads. */
    private JsonNode schedulerConfig() {
        JsonNode gen = configMapGenerator("muster-scheduler-config");
        String file = gen.path("files").get(0).asText();
        return Manifests.tree(ROOT.resolve(file.substring(file.indexOf('=') + 1)));
    }

    private static JsonNode configMapGenerator(String name) {
        for (JsonNode g : Manifests.tree(MAIN).path("configMapGenerator")) {
            if (g.path("name").asText().equals(name)) {
                return g;
            }
        }
        throw new AssertionError("no configMapGenerator " + name);
    }

    private static Properties applicationProperties() throws IOException {
        Properties p = new Properties();
        try (var in = Files.newInputStream(Path.of("src/main/resources/application.properties"))) {
            p.load(in);
        }
        return p;
    }

    // --- kustomizations -------------------------------------------------------------------------------------------

    @Test
    void everyManifestParsesAndEveryKustomizationListsEveryFileOfItsDirectory() throws IOException {
        assertThat(Manifests.kustomizations()).contains(MAIN, EXAMPLES);
        for (Path k : Manifests.kustomizations()) {
            Set<String> listed = new TreeSet<>();
            JsonNode tree = Manifests.tree(k);
            tree.path("resources").forEach(r -> listed.add(r.asText()));
            tree.path("configMapGenerator").forEach(g -> g.path("files")
                    .forEach(f -> listed.add(f.asText().substring(f.asText().indexOf('=') + 1))));
            Set<String> present;
            try (Stream<Path> files = Files.list(k.getParent())) {
                present = files.filter(f -> Files.isRegularFile(f) && f.toString().endsWith(".yaml")
                                && !f.getFileName().toString().equals("kustomization.yaml"))
                        .map(f -> f.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
            }
            assertThat(listed).as("files listed in %s", k).containsAll(present);
            for (String r : listed) {
                assertThat(k.getParent().resolve(r)).as("%s lists %s", k, r).exists();
            }
            List<HasMetadata> objects = Manifests.resources(k);
            assertThat(objects).as("objects of %s", k).isNotEmpty()
                    .allSatisfy(o -> assertThat(o.getMetadata().getName()).isNotBlank());
        }
    }

    @Test
    void namespacesComeFirstAndEveryNamespacedObjectLandsInOneCreatedBeforeIt() {
        for (Path k : List.of(MAIN, EXAMPLES)) {
            List<HasMetadata> objects = Manifests.resources(k);
            assertThat(objects.get(0)).as("first object of %s", k).isInstanceOf(Namespace.class);
            Set<String> created = new HashSet<>();
            for (HasMetadata o : objects) {
                if (o instanceof Namespace) {
                    created.add(o.getMetadata().getName());
                    continue;
                }
                String ns = o.getMetadata().getNamespace();
                if (ns != null && !CLUSTER_NAMESPACES.contains(ns)) {
                    assertThat(created).as("%s %s in %s", o.getKind(), o.getMetadata().getName(), k).contains(ns);
                }
            }
        }
    }

    // --- Muster's Deployment and Service --------------------------------------------------------------------------

    @Test
    void theServiceReachesThePortTheApplicationListensOn() throws IOException {
        int appPort = Integer.parseInt(applicationProperties().getProperty("quarkus.http.port", "8080"));
        Deployment d = muster();
        Service s = service();
        assertThat(d.getSpec().getTemplate().getMetadata().getLabels()).containsAllEntriesOf(s.getSpec().getSelector());
        assertThat(d.getSpec().getSelector().getMatchLabels()).isEqualTo(s.getSpec().getSelector());
        List<ContainerPort> ports = container(d).getPorts();
        for (ServicePort sp : s.getSpec().getPorts()) {
            assertThat(containerPort(ports, sp.getTargetPort())).as("Service port %s", sp.getName()).isEqualTo(appPort);
        }
        var policy = Manifests.one(installed, io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy.class, "muster");
        assertThat(policy.getSpec().getIngress()).flatExtracting(r -> r.getPorts())
                .extracting(p -> p.getPort().getIntVal()).containsExactly(appPort);
    }

    private static int containerPort(List<ContainerPort> ports, IntOrString ref) {
        if (ref.getIntVal() != null) {
            assertThat(ports).extracting(ContainerPort::getContainerPort).contains(ref.getIntVal());
            return ref.getIntVal();
        }
        return ports.stream().filter(p -> ref.getStrVal().equals(p.getName())).findFirst()
                .orElseThrow(() -> new AssertionError("no container port named " + ref.getStrVal()))
                .getContainerPort();
    }

    @Test
    void theProbesAskTheHealthPathsTheApplicationServes() throws IOException {
        Properties app = applicationProperties();
        String root = "/" + app.getProperty("quarkus.http.non-application-root-path", "q") + "/"
                + app.getProperty("quarkus.smallrye-health.root-path", "health");
        Container c = container(muster());
        assertThat(c.getReadinessProbe().getHttpGet().getPath()).isEqualTo(root + "/ready");
        assertThat(c.getLivenessProbe().getHttpGet().getPath()).isEqualTo(root + "/live");
        assertThat(c.getStartupProbe().getHttpGet().getPath()).isEqualTo(root + "/live");
        for (HTTPGetAction get : List.of(c.getReadinessProbe().getHttpGet(), c.getLivenessProbe().getHttpGet())) {
            assertThat(containerPort(c.getPorts(), get.getPort()))
                    .isEqualTo(Integer.parseInt(app.getProperty("quarkus.http.port", "8080")));
        }
    }

    @Test
    void theGracePeriodCoversTheShutdownDelayAndTimeout() throws IOException {
        Properties app = applicationProperties();
        Duration delay = duration(app.getProperty("%prod.quarkus.shutdown.delay", "0s"));
        Duration timeout = duration(app.getProperty("%prod.quarkus.shutdown.timeout", "0s"));
        assertThat(app.getProperty("quarkus.shutdown.delay-enabled")).isEqualTo("true");
        assertThat(timeout).isPositive();
        long grace = muster().getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds();
        assertThat(Duration.ofSeconds(grace)).isGreaterThan(delay.plus(timeout));
    }

    /** JAVA_OPTS_APPEND of the Deployment, with $(VAR) references expanded from the container's earlier env. */
    private static String javaOptsAppend(Container c) {
        Map<String, String> env = new java.util.LinkedHashMap<>();
        for (EnvVar e : c.getEnv()) {
            Matcher m = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)").matcher(e.getValue());
            StringBuilder sb = new StringBuilder();
            while (m.find()) {
                assertThat(env).as("%s references %s, defined before it", e.getName(), m.group(1)).containsKey(m.group(1));
                m.appendReplacement(sb, Matcher.quoteReplacement(env.get(m.group(1))));
            }
            m.appendTail(sb);
            env.put(e.getName(), sb.toString());
        }
        return env.get("JAVA_OPTS_APPEND");
    }

    @Test
    void javaOptsAppendKeepsTheImageFlagsAndSizesTheHeapInsideTheLimit() throws IOException {
        Matcher m = Pattern.compile("(?m)^ENV JAVA_OPTS_APPEND=\"([^\"]*)\"").matcher(Files.readString(Path.of("docker/Dockerfile.jvm")));
        assertThat(m.find()).as("Dockerfile.jvm sets JAVA_OPTS_APPEND").isTrue();
        List<String> imageFlags = List.of(m.group(1).trim().split("\\s+"));
        Container c = container(muster());
        List<String> flags = List.of(javaOptsAppend(c).trim().split("\\s+"));
        assertThat(flags).as("the image's own flags survive the override").containsAll(imageFlags);
        String maxPercent = flags.stream().filter(f -> f.startsWith("-XX:MaxRAMPercentage=")).findFirst()
                .map(f -> f.substring(f.indexOf('=') + 1))
                .orElseThrow(() -> new AssertionError("no -XX:MaxRAMPercentage"));
        assertThat((int) Double.parseDouble(maxPercent)).isBetween(50, 80);
        assertThat(flags).noneMatch(f -> f.startsWith("-Xmx"));
        assertThat(flags).as("the heap is committed at its maximum from the start")
                .contains("-XX:InitialRAMPercentage=" + maxPercent);
        assertThat(flags).as("and touched then, not in a young collection's pause").contains("-XX:+AlwaysPreTouch");
        var limits = c.getResources().getLimits();
        assertThat(limits).containsKey("memory");
        assertThat(c.getResources().getRequests().get("memory")).isEqualTo(limits.get("memory"));
    }

    @Test
    void replicasAreTheAutoscalersAndADisruptionBudgetLeavesRoomToDrain() {
        for (HorizontalPodAutoscaler hpa : Manifests.all(installed, HorizontalPodAutoscaler.class)) {
            Deployment target = Manifests.one(installed, Deployment.class, hpa.getSpec().getScaleTargetRef().getName());
            assertThat(target.getSpec().getReplicas()).as("spec.replicas of %s, which an HPA scales",
                    target.getMetadata().getName()).isNull();
            assertThat(hpa.getSpec().getMinReplicas()).isGreaterThanOrEqualTo(2);
            for (PodDisruptionBudget pdb : Manifests.all(installed, PodDisruptionBudget.class)) {
                if (target.getSpec().getTemplate().getMetadata().getLabels().entrySet()
                        .containsAll(pdb.getSpec().getSelector().getMatchLabels().entrySet())) {
                    assertThat(pdb.getSpec().getMinAvailable().getIntVal()).isLessThan(hpa.getSpec().getMinReplicas());
                }
            }
        }
        assertThat(Manifests.all(installed, HorizontalPodAutoscaler.class)).isNotEmpty();
    }

    // --- the scheduler ----------------------------------------------------------------------------------------------

    @Test
    void theExtenderReachesTheServiceAndNamesVerbsTheExtenderServes() {
        JsonNode config = schedulerConfig();
        assertThat(config.path("apiVersion").asText()).isEqualTo("kubescheduler.config.k8s.io/v1");
        assertThat(config.path("kind").asText()).isEqualTo("KubeSchedulerConfiguration");
        assertThat(config.path("extenders")).hasSize(1);
        JsonNode ext = config.path("extenders").get(0);
        URI url = URI.create(ext.path("urlPrefix").asText());
        Service s = service();
        assertThat(url.getScheme()).isEqualTo(ext.path("enableHTTPS").asBoolean() ? "https" : "http");
        assertThat(url.getHost()).isIn(s.getMetadata().getName() + "." + s.getMetadata().getNamespace() + ".svc",
                s.getMetadata().getName() + "." + s.getMetadata().getNamespace() + ".svc.cluster.local");
        int port = url.getPort() < 0 ? 80 : url.getPort();
        assertThat(s.getSpec().getPorts()).extracting(ServicePort::getPort).contains(port);

        Set<String> served = servedExtenderPaths();
        for (String verb : List.of("filterVerb", "prioritizeVerb", "preemptVerb", "bindVerb")) {
            assertThat(ext.path(verb).asText()).as(verb).isNotBlank();
            assertThat(served).as(verb).contains(url.getPath() + "/" + ext.path(verb).asText());
        }
        // the extender reads node names from its own view, and every pod of the profile must reach it
        assertThat(ext.path("nodeCacheCapable").asBoolean()).isTrue();
        assertThat(ext.path("ignorable").asBoolean(true)).isFalse();
        assertThat(ext.path("managedResources").isMissingNode() || ext.path("managedResources").isEmpty()).isTrue();
    }

    /** {@code /extender/filter} etc.: the POST methods of the extender resource, with their JAX-RS paths. */
    private static Set<String> servedExtenderPaths() {
        String base = ExtenderResource.class.getAnnotation(jakarta.ws.rs.Path.class).value();
        Set<String> out = new TreeSet<>();
        for (Method m : ExtenderResource.class.getMethods()) {
            jakarta.ws.rs.Path p = m.getAnnotation(jakarta.ws.rs.Path.class);
            if (p != null && m.isAnnotationPresent(POST.class)) {
                out.add(("/" + base + "/" + p.value()).replaceAll("/+", "/"));
            }
        }
        assertThat(out).hasSize(4);
        return out;
    }

    @Test
    void aHeldBindAnswersBeforeTheSchedulerGivesUpOnIt() {
        Duration httpTimeout = duration(schedulerConfig().path("extenders").get(0).path("httpTimeout").asText("5s"));
        String bind = container(muster()).getEnv().stream().filter(e -> e.getName().equals("MUSTER_EXTENDER_BIND_TIMEOUT"))
                .map(EnvVar::getValue).findFirst().orElse("5m");
        assertThat(duration(bind)).isLessThan(httpTimeout);
    }

    @Test
    void theSchedulerRunsTheConfigFromTheGeneratedConfigMap() {
        Deployment d = scheduler();
        Container c = container(d);
        assertThat(c.getImage()).isEqualTo("registry.k8s.io/kube-scheduler:v1.36.0");
        String configArg = c.getCommand().stream().filter(a -> a.startsWith("--config=")).findFirst().orElseThrow();
        Path configPath = Path.of(configArg.substring("--config=".length()));
        VolumeMount mount = c.getVolumeMounts().stream()
                .filter(m -> configPath.startsWith(Path.of(m.getMountPath()))).findFirst().orElseThrow();
        Volume volume = d.getSpec().getTemplate().getSpec().getVolumes().stream()
                .filter(v -> v.getName().equals(mount.getName())).findFirst().orElseThrow();
        JsonNode gen = configMapGenerator(volume.getConfigMap().getName());
        assertThat(gen.path("namespace").asText()).isEqualTo(d.getMetadata().getNamespace());
        String key = Path.of(mount.getMountPath()).relativize(configPath).toString();
        assertThat(gen.path("files")).extracting(JsonNode::asText).anyMatch(f -> f.startsWith(key + "="));
        JsonNode config = schedulerConfig();
        assertThat(config.path("leaderElection").path("leaderElect").asBoolean())
                .as("several scheduler replicas need leader election").isEqualTo(d.getSpec().getReplicas() > 1);
    }

    @Test
    void theSchedulerMayDoWhatAKubeSchedulerDoesAndHoldItsOwnLease() {
        Deployment d = scheduler();
        String sa = d.getSpec().getTemplate().getSpec().getServiceAccountName();
        String ns = d.getMetadata().getNamespace();
        Set<String> clusterRoles = Manifests.all(installed, ClusterRoleBinding.class).stream()
                .filter(b -> boundTo(b.getSubjects(), sa, ns)).map(b -> b.getRoleRef().getName()).collect(Collectors.toSet());
        assertThat(clusterRoles).contains("system:kube-scheduler", "system:volume-scheduler");

        JsonNode election = schedulerConfig().path("leaderElection");
        String leaseNs = election.path("resourceNamespace").asText();
        String lease = election.path("resourceName").asText();
        List<PolicyRule> rules = new ArrayList<>();
        for (RoleBinding b : Manifests.all(installed, RoleBinding.class)) {
            if (leaseNs.equals(b.getMetadata().getNamespace()) && boundTo(b.getSubjects(), sa, ns)
                    && b.getRoleRef().getKind().equals("Role")) {
                Role r = Manifests.all(installed, Role.class).stream()
                        .filter(x -> x.getMetadata().getName().equals(b.getRoleRef().getName())
                                && leaseNs.equals(x.getMetadata().getNamespace())).findFirst().orElseThrow();
                rules.addAll(r.getRules());
            }
        }
        for (String verb : List.of("get", "update")) {
            assertThat(grants(rules, "coordination.k8s.io", "leases", verb, lease)).as("%s lease %s", verb, lease).isTrue();
        }
        assertThat(grants(rules, "coordination.k8s.io", "leases", "create", null)).isTrue();
    }

    private static boolean boundTo(List<Subject> subjects, String sa, String ns) {
        return subjects.stream().anyMatch(s -> s.getKind().equals("ServiceAccount") && s.getName().equals(sa)
                && ns.equals(s.getNamespace()));
    }

    private static boolean grants(List<PolicyRule> rules, String group, String resource, String verb, String name) {
        return rules.stream().anyMatch(r -> r.getApiGroups().contains(group) && r.getResources().contains(resource)
                && r.getVerbs().contains(verb)
                && (r.getResourceNames() == null || r.getResourceNames().isEmpty()
                || (name != null && r.getResourceNames().contains(name))));
    }

    // --- Muster's RBAC ------------------------------------------------------------------------------------------------

    @Test
    void mustersClusterRoleCoversEveryKindTheClusterViewWatches() {
        Deployment d = muster();
        String sa = d.getSpec().getTemplate().getSpec().getServiceAccountName();
        assertThat(Manifests.find(installed, io.fabric8.kubernetes.api.model.ServiceAccount.class, sa)).isPresent();
        List<PolicyRule> rules = new ArrayList<>();
        for (ClusterRoleBinding b : Manifests.all(installed, ClusterRoleBinding.class)) {
            if (boundTo(b.getSubjects(), sa, d.getMetadata().getNamespace())) {
                rules.addAll(Manifests.one(installed, ClusterRole.class, b.getRoleRef().getName()).getRules());
            }
        }
        assertThat(KubernetesClusterViewSource.WATCHED).hasSize(10);
        for (String kind : KubernetesClusterViewSource.WATCHED) {
            int dot = kind.indexOf('.');
            String resource = dot < 0 ? kind : kind.substring(0, dot);
            String group = dot < 0 ? "" : kind.substring(dot + 1);
            for (String verb : List.of("get", "list", "watch")) {
                assertThat(grants(rules, group, resource, verb, null)).as("%s %s", verb, kind).isTrue();
            }
        }
        assertThat(grants(rules, "", "pods/binding", "create", null)).as("the extender's bind").isTrue();
        assertThat(container(d).getEnv()).extracting(EnvVar::getName, EnvVar::getValue)
                .contains(org.assertj.core.groups.Tuple.tuple("MUSTER_CLUSTER_VIEW_SOURCE", "kubernetes"));
    }

    /**
     * Every rule bound to Muster's ServiceAccount in the install (ClusterRoles, and Roles in any namespace) that
     * touches resource.k8s.io, together: get, list and watch on the four kinds the cluster view watches, nothing
     * else (no write verb, no other resource or subresource, no wildcard, no rule naming single objects).
     */
    @Test
    void mustersRbacReadsExactlyTheFourDraKindsAndNothingMoreOfResourceK8sIo() {
        Deployment d = muster();
        String sa = d.getSpec().getTemplate().getSpec().getServiceAccountName();
        String ns = d.getMetadata().getNamespace();
        List<PolicyRule> rules = new ArrayList<>();
        for (ClusterRoleBinding b : Manifests.all(installed, ClusterRoleBinding.class)) {
            if (boundTo(b.getSubjects(), sa, ns)) {
                rules.addAll(Manifests.one(installed, ClusterRole.class, b.getRoleRef().getName()).getRules());
            }
        }
        for (RoleBinding b : Manifests.all(installed, RoleBinding.class)) {
            if (boundTo(b.getSubjects(), sa, ns)) {
                rules.addAll(b.getRoleRef().getKind().equals("ClusterRole")
                        ? Manifests.one(installed, ClusterRole.class, b.getRoleRef().getName()).getRules()
                        : Manifests.all(installed, Role.class).stream()
                        .filter(r -> r.getMetadata().getName().equals(b.getRoleRef().getName())
                                && b.getMetadata().getNamespace().equals(r.getMetadata().getNamespace()))
                        .findFirst().orElseThrow().getRules());
            }
        }
        Set<String> granted = new TreeSet<>();
        for (PolicyRule r : rules) {
            if (r.getApiGroups().contains("resource.k8s.io") || r.getApiGroups().contains("*")) {
                assertThat(r.getResourceNames()).as("rule %s", r).isNullOrEmpty();
                for (String resource : r.getResources()) {
                    for (String verb : r.getVerbs()) {
                        granted.add(resource + " " + verb);
                    }
                }
            }
        }
        Set<String> expected = new TreeSet<>();
        for (String kind : KubernetesClusterViewSource.WATCHED) {
            if (kind.endsWith(".resource.k8s.io")) {
                for (String verb : List.of("get", "list", "watch")) {
                    expected.add(kind.substring(0, kind.indexOf('.')) + " " + verb);
                }
            }
        }
        assertThat(expected).hasSize(12);
        assertThat(granted).isEqualTo(expected);
    }

    @Test
    void bindHoldsStayInOneReplicaBecauseTheSchedulerIsOneClient() {
        JsonNode ext = schedulerConfig().path("extenders").get(0);
        if (!ext.path("bindVerb").asText().isEmpty()) {
            assertThat(service().getSpec().getSessionAffinity()).isEqualTo("ClientIP");
        }
    }

    // --- the example ------------------------------------------------------------------------------------------------

    @Test
    void theExampleGangNamesTheSchedulersProfileAndAPodGroupOfAWorkload() {
        Set<String> profiles = new TreeSet<>();
        schedulerConfig().path("profiles").forEach(p -> profiles.add(p.path("schedulerName").asText()));
        assertThat(profiles).containsExactly("muster");
        List<HasMetadata> example = Manifests.resources(EXAMPLES);
        List<Pod> pods = Manifests.all(example, Pod.class);
        assertThat(pods).isNotEmpty();
        for (Pod p : pods) {
            assertThat(p.getSpec().getSchedulerName()).as("pod %s", p.getMetadata().getName()).isIn(profiles);
            String groupName = p.getSpec().getSchedulingGroup().getPodGroupName();
            PodGroup group = Manifests.one(example, PodGroup.class, groupName);
            assertThat(group.getMetadata().getNamespace()).isEqualTo(p.getMetadata().getNamespace());
        }
        for (PodGroup g : Manifests.all(example, PodGroup.class)) {
            var ref = g.getSpec().getPodGroupTemplateRef().getWorkload();
            Workload w = Manifests.one(example, Workload.class, ref.getWorkloadName());
            var template = w.getSpec().getPodGroupTemplates().stream()
                    .filter(t -> t.getName().equals(ref.getPodGroupTemplateName())).findFirst().orElseThrow();
            assertThat(g.getSpec().getSchedulingPolicy()).isEqualTo(template.getSchedulingPolicy());
            int minCount = g.getSpec().getSchedulingPolicy().getGang().getMinCount();
            assertThat(pods.stream().filter(p -> p.getSpec().getSchedulingGroup().getPodGroupName()
                    .equals(g.getMetadata().getName()))).as("members of %s", g.getMetadata().getName()).hasSize(minCount);
        }
    }

    /** Kubernetes/Go style durations as used in these files: 25s, 5m, 1h, 500ms. */
    static Duration duration(String s) {
        Matcher m = Pattern.compile("(\\d+)(ms|s|m|h)").matcher(s.trim());
        assertThat(m.matches()).as("duration %s", s).isTrue();
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
    }
}
