package dev.muster.adapter.grpc;

import com.google.protobuf.util.JsonFormat;
import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.Qty;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.grpc.v1.DecideRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A REST body read as the proto3 JSON form of {@link DecideRequest} and mapped by {@link GrpcRequestMapper} gives
 * exactly the {@link RequestDocument} the REST decoder gives for the same bytes: the same records, so the same
 * validation and the same KubeMapper run after both (docs/api.md, "gRPC").
 */
class GrpcRequestMapperTest {
    private final KubeCodec codec = new KubeCodec(KubeCodec.Limits.DEFAULT);

    static DecideRequest parse(String json) throws Exception {
        DecideRequest.Builder b = DecideRequest.newBuilder();
        JsonFormat.parser().ignoringUnknownFields().merge(json, b);
        return b.build();
    }

    private RequestDocument viaGrpc(String json) throws Exception {
        return GrpcRequestMapper.toDocument(parse(json));
    }

    private RequestDocument viaRest(String json) throws Exception {
        return codec.readJson(json.getBytes(StandardCharsets.UTF_8));
    }

    private static String q(String singleQuoted) {
        return singleQuoted.replace('\'', '"');
    }

    @Test
    void theTrainingJobExampleDecodesToTheSameDocument() throws Exception {
        String json = Files.readString(Path.of("openapi/examples/training-job.json"));
        RequestDocument grpc = viaGrpc(json);
        assertThat(grpc).isEqualTo(viaRest(json));
        assertThat(grpc.snapshot().nodes()).hasSizeGreaterThan(1);
        assertThat(grpc.podGroups()).containsExactly("some-ns/training-job-workers-pg");
    }

    @ParameterizedTest(name = "random cluster, seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
    void randomClustersDecodeToTheSameDocument(long seed) throws Exception {
        String json = RandomSnapshots.small(seed);
        RequestDocument grpc = viaGrpc(json);
        assertThat(grpc).isEqualTo(viaRest(json));
        assertThat(grpc.snapshot().pods()).isNotEmpty();
    }

    /** Volcano's networkTopology and HyperNodes (every selector form) decode over gRPC as over REST. */
    @Test
    void volcanoNetworkTopologyAndHyperNodesDecodeToTheSameDocument() throws Exception {
        String json = q("""
                {'snapshot':{'nodes':[{'metadata':{'name':'n1','labels':{'rack':'r1'}}}],
                 'podGroups':[{'apiVersion':'scheduling.volcano.sh/v1beta1','kind':'PodGroup',
                   'metadata':{'name':'g','namespace':'ns'},'spec':{'minMember':1,'queue':'q',
                   'networkTopology':{'mode':'soft','highestTierAllowed':2,'highestTierName':'spine'}}}],
                 'hyperNodes':[{'apiVersion':'topology.volcano.sh/v1alpha1','kind':'HyperNode',
                   'metadata':{'name':'leaf'},'spec':{'tier':1,'tierName':'leaf','members':[
                    {'type':'Node','selector':{'exactMatch':{'name':'n1'}}},
                    {'type':'Node','selector':{'regexMatch':{'pattern':'^n'}}},
                    {'type':'Node','selector':{'labelMatch':{'matchLabels':{'rack':'r1'},
                      'matchExpressions':[{'key':'gpu','operator':'DoesNotExist'}]}}},
                    {'type':'HyperNode','selector':{'exactMatch':{}}}]}},
                  {'metadata':{'name':'empty'},'spec':{}}]}}
                """);
        RequestDocument grpc = viaGrpc(json);
        assertThat(grpc).isEqualTo(viaRest(json));
        assertThat(grpc.snapshot().podGroups().get(0).spec().networkTopology())
                .isEqualTo(new Kube.NetworkTopology("soft", 2, "spine"));
        assertThat(grpc.snapshot().hyperNodes()).hasSize(2);
        assertThat(grpc.snapshot().hyperNodes().get(0).spec().members().get(2).selector().labelMatch()
                .matchExpressions()).hasSize(1);
    }

    /** Every field the Kube records decode, under its Kubernetes JSON name, including hostIP and the unions. */
    @Test
    void everyDecodedFieldHasAProtoFieldWithTheSameJsonName() throws Exception {
        String json = q("""
                {'snapshot':{
                 'nodes':[{'metadata':{'name':'n1','uid':'u1','labels':{'zone':'a'},'annotations':{'x':'y'},
                   'creationTimestamp':'2026-04-20T08:00:00Z','generation':3},
                   'spec':{'unschedulable':false,'taints':[{'key':'gpu','value':'true','effect':'NoSchedule','timeAdded':'x'}]},
                   'status':{'allocatable':{'cpu':'8','nvidia.com/gpu':'4'},'capacity':{'cpu':'8','memory':'32Gi'}}}],
                 'pods':[{'metadata':{'name':'p','namespace':'ns','uid':'pu','labels':{'app':'a'},
                   'creationTimestamp':'2026-04-20T08:00:00Z','deletionTimestamp':'2026-04-20T09:00:00Z'},
                   'spec':{'nodeName':'n1','schedulerName':'default-scheduler','priority':0,'priorityClassName':'high',
                    'preemptionPolicy':'Never','nodeSelector':{'zone':'a'},
                    'affinity':{
                     'nodeAffinity':{
                      'requiredDuringSchedulingIgnoredDuringExecution':{'nodeSelectorTerms':[
                        {'matchExpressions':[{'key':'zone','operator':'In','values':['a','b']}],
                         'matchFields':[{'key':'metadata.name','operator':'NotIn','values':['n9']}]}]},
                      'preferredDuringSchedulingIgnoredDuringExecution':[{'weight':5,'preference':{
                        'matchExpressions':[{'key':'disk','operator':'Exists'}]}}]},
                     'podAffinity':{'requiredDuringSchedulingIgnoredDuringExecution':[{
                        'labelSelector':{'matchLabels':{'app':'a'},'matchExpressions':[{'key':'tier','operator':'NotIn','values':['x']}]},
                        'namespaces':['ns','other'],'namespaceSelector':{},'topologyKey':'zone',
                        'matchLabelKeys':['app'],'mismatchLabelKeys':['rev']}]},
                     'podAntiAffinity':{'preferredDuringSchedulingIgnoredDuringExecution':[{'weight':100,
                        'podAffinityTerm':{'labelSelector':{'matchLabels':{'app':'b'}},'topologyKey':'kubernetes.io/hostname'}}]}},
                    'tolerations':[{'key':'gpu','operator':'Equal','value':'true','effect':'NoSchedule','tolerationSeconds':30},
                                   {'operator':'Exists'}],
                    'containers':[{'name':'main','image':'img','resources':{'requests':{'cpu':'500m'},'limits':{'memory':'1Gi'}},
                                   'ports':[{'containerPort':80,'hostPort':8080,'protocol':'TCP','hostIP':'10.0.0.1'}]}],
                    'initContainers':[{'name':'side','restartPolicy':'Always','resources':{'requests':{'cpu':'100m'}}},
                                      {'name':'init','resources':{'requests':{'cpu':'2'}}}],
                    'overhead':{'cpu':'10m'},
                    'resources':{'requests':{'memory':'2Gi'}},
                    'topologySpreadConstraints':[{'maxSkew':2,'topologyKey':'zone','whenUnsatisfiable':'DoNotSchedule',
                      'labelSelector':{'matchLabels':{'app':'a'}},'minDomains':2,'nodeAffinityPolicy':'Ignore',
                      'nodeTaintsPolicy':'Honor','matchLabelKeys':['pod-template-hash']}],
                    'schedulingGates':[{'name':'example.com/gate'}],
                    'schedulingGroup':{'podGroupName':'g'},
                    'resourceClaims':[{'name':'gpu','resourceClaimName':'c1'},{'name':'t','resourceClaimTemplateName':'t1'}]},
                   'status':{'phase':'Running','nominatedNodeName':'n1','podIP':'10.1.1.1'}}],
                 'podGroups':[{'metadata':{'name':'g','namespace':'ns','generation':2},
                   'spec':{'podGroupTemplateRef':{'workload':{'workloadName':'w','podGroupTemplateName':'workers'}},
                    'schedulingPolicy':{'gang':{'minCount':4}},
                    'schedulingConstraints':{'topology':[{'key':'zone'}]},
                    'resourceClaims':[{'name':'shared','resourceClaimName':'c2'}],
                    'disruptionMode':'PodGroup','priorityClassName':'high','priority':100},
                   'status':{'conditions':[{'type':'PodGroupScheduled','status':'False','reason':'Unschedulable',
                     'message':'m','observedGeneration':1,'lastTransitionTime':'2026-04-20T08:00:00Z'}]}},
                  {'metadata':{'name':'b'},'spec':{'schedulingPolicy':{'basic':{}}}}],
                 'workloads':[{'metadata':{'name':'w','namespace':'ns'},
                   'spec':{'controllerRef':{'apiGroup':'batch','kind':'Job','name':'j'},
                    'podGroupTemplates':[{'name':'workers','schedulingPolicy':{'gang':{'minCount':2}},
                     'schedulingConstraints':{'topology':[{'key':'zone'}]},
                     'resourceClaims':[{'name':'r','resourceClaimTemplateName':'t'}],
                     'disruptionMode':'Pod','priorityClassName':'low','priority':5}]}}],
                 'priorityClasses':[{'metadata':{'name':'high'},'value':1000,'globalDefault':true,
                   'preemptionPolicy':'PreemptLowerPriority','description':'ignored'}],
                 'podDisruptionBudgets':[{'metadata':{'name':'pdb','namespace':'ns'},
                   'spec':{'selector':{'matchLabels':{'app':'a'}},'minAvailable':1},'status':{'disruptionsAllowed':0}}],
                 'deviceClasses':[{'metadata':{'name':'gpu.example.com'}}],
                 'resourceSlices':[{'metadata':{'name':'slice-1'}}],
                 'resourceClaims':[{'metadata':{'name':'c1','namespace':'ns'}}],
                 'resourceClaimTemplates':[{'metadata':{'name':'t1','namespace':'ns'}}]},
                 'podGroups':['ns/g'],
                 'options':{'preemption':false,'explain':true}}
                """);
        RequestDocument grpc = viaGrpc(json);
        RequestDocument rest = viaRest(json);
        assertThat(grpc).isEqualTo(rest);
        // spot checks that the comparison is not vacuous
        assertThat(grpc.snapshot().pods().get(0).spec().containers().get(0).ports().get(0).hostIP())
                .isEqualTo("10.0.0.1");
        assertThat(grpc.snapshot().pods().get(0).spec().priority()).isZero();
        assertThat(grpc.snapshot().podGroups().get(1).spec().schedulingPolicy().basic()).isNotNull();
        assertThat(grpc.snapshot().pods().get(0).spec().affinity().podAffinity()
                .requiredDuringSchedulingIgnoredDuringExecution().get(0).namespaceSelector()).isNotNull();
        assertThat(grpc.options().explain()).isTrue();
        assertThat(grpc.options().preemption()).isFalse();
    }

    static final Path DRA_GOLDEN = Path.of("src/test/resources/golden",
            "a GPU gang with a claim per pod and a shared PodGroup claim lands on the node of the shared device",
            "request.json");

    /** The DRA golden request: device classes, slices, claims, templates, per-pod and PodGroup claims. */
    @Test
    void theDraGoldenRequestDecodesToTheSameDocument() throws Exception {
        String json = Files.readString(DRA_GOLDEN);
        RequestDocument grpc = viaGrpc(json);
        assertThat(grpc).isEqualTo(viaRest(json));
        var s = grpc.snapshot();
        assertThat(s.deviceClasses().get(0).spec().selectors().get(0).cel().expression())
                .isEqualTo("device.driver == 'gpu.example.com'");
        assertThat(s.deviceClasses().get(0).spec().config().get(0).opaque().parameters().toString())
                .isEqualTo("{\"apiVersion\":\"gpu.example.com/v1\",\"kind\":\"GpuConfig\"}");
        assertThat(s.resourceSlices()).hasSize(2);
        assertThat(s.resourceSlices().get(0).spec().devices()).hasSize(8);
        assertThat(s.resourceSlices().get(0).spec().devices().get(0).attributes().get("index").intValue()).isZero();
        assertThat(s.resourceClaims().get(0).status().allocation().devices().results()).hasSize(2);
        assertThat(s.resourceClaimTemplates().get(0).spec().spec().devices().requests().get(0).exactly()
                .deviceClassName()).isEqualTo("gpu.example.com");
        assertThat(s.podGroups().get(0).spec().resourceClaims()).hasSize(1);
    }

    /** A claim's owner references (the extended-resource claim's controlling pod) read alike over gRPC. */
    @Test
    void claimOwnerReferencesDecodeToTheSameDocument() throws Exception {
        String json = Files.readString(Path.of("src/test/resources/golden", "a pending pod whose extended-resource "
                + "claim from a failed attempt is found by its owner waits until that claim is deleted", "request.json"));
        RequestDocument grpc = viaGrpc(json);
        assertThat(grpc).isEqualTo(viaRest(json));
        assertThat(grpc.snapshot().resourceClaims().get(0).metadata().ownerReferences()).containsExactly(
                new Kube.OwnerReference("v1", "Pod", "w-0", "uid-w-0", true, true));
    }

    /** Every field the KubeDra records decode, under its Kubernetes JSON name, unions and keyword names included. */
    @Test
    void everyDraFieldHasAProtoFieldWithTheSameJsonName() throws Exception {
        String json = q("""
                {'snapshot':{
                 'nodes':[{'metadata':{'name':'n1'}}],
                 'pods':[{'metadata':{'name':'p','namespace':'ns'},'spec':{'resourceClaims':[{'name':'g','resourceClaimTemplateName':'t'}]},
                   'status':{'phase':'Pending','resourceClaimStatuses':[{'name':'g','resourceClaimName':'p-g-x1'},{'name':'h'}],
                     'extendedResourceClaimStatus':{'resourceClaimName':'p-extended-resources-x3',
                       'requestMappings':[{'containerName':'main','resourceName':'example.com/gpu','requestName':'container-0-request-0'}]}}}],
                 'podGroups':[{'metadata':{'name':'pg','namespace':'ns'},'spec':{'schedulingPolicy':{'basic':{}}},
                   'status':{'resourceClaimStatuses':[{'name':'s','resourceClaimName':'pg-s-x2'}]}}],
                 'deviceClasses':[{'metadata':{'name':'gpu'},'spec':{
                   'selectors':[{'cel':{'expression':'device.driver == \\"gpu.example.com\\"'}}],
                   'config':[{'opaque':{'driver':'gpu.example.com','parameters':{'a':1,'b':[true,null,1.5,'x'],'c':{'d':-7,'e':12345678901}}}}]}}],
                 'resourceSlices':[{'metadata':{'name':'s1'},'spec':{'driver':'gpu.example.com',
                   'pool':{'name':'p1','generation':0,'resourceSliceCount':1},'nodeName':'n1',
                   'nodeSelector':{'nodeSelectorTerms':[{'matchExpressions':[{'key':'zone','operator':'In','values':['a']}]}]},
                   'allNodes':false,'perDeviceNodeSelection':true,
                   'sharedCounters':[{'name':'cs','counters':{'mem':{'value':'80Gi'}}}],
                   'devices':[{'name':'d0',
                     'attributes':{'i':{'int':3},'b':{'bool':false},'s':{'string':'x'},'v':{'version':'1.2.3'},'z':{'int':0}},
                     'capacity':{'memory':{'value':'80Gi','requestPolicy':{'default':'10Gi','validValues':['10Gi','20Gi'],
                       'validRange':{'min':'1Gi','max':'80Gi','step':'1Gi'}}}},
                     'consumesCounters':[{'counterSet':'cs','counters':{'mem':{'value':'40Gi'}}}],
                     'taints':[{'key':'k','value':'v','effect':'NoSchedule','timeAdded':'ignored'}],
                     'allowMultipleAllocations':true,'bindsToNode':false,'bindingConditions':['Ready'],
                     'bindingFailureConditions':['Failed'],'nodeName':'n1',
                     'nodeSelector':{'nodeSelectorTerms':[{'matchFields':[{'key':'metadata.name','operator':'In','values':['n1']}]}]},
                     'allNodes':false}]}}],
                 'resourceClaims':[{'metadata':{'name':'c1','namespace':'ns','uid':'cu'},'spec':{'devices':{
                   'requests':[{'name':'r','exactly':{'deviceClassName':'gpu','selectors':[{'cel':{'expression':'true'}}],
                      'allocationMode':'ExactCount','count':2,'adminAccess':false,
                      'tolerations':[{'key':'k','operator':'Equal','value':'v','effect':'NoSchedule','tolerationSeconds':0},{'operator':'Exists'}],
                      'capacity':{'requests':{'memory':'10Gi'}}}},
                     {'name':'f','firstAvailable':[{'name':'big','deviceClassName':'gpu','selectors':[{'cel':{'expression':'true'}}],
                      'allocationMode':'All','count':1,'tolerations':[{'operator':'Exists','effect':'NoExecute','tolerationSeconds':30}],
                      'capacity':{'requests':{'memory':'20Gi'}}},{'name':'small','deviceClassName':'gpu'}]}],
                   'constraints':[{'requests':['r','f'],'matchAttribute':'gpu.example.com/numa'},{'distinctAttribute':'i'}],
                   'config':[{'requests':['r'],'opaque':{'driver':'gpu.example.com','parameters':'text'}}]}},
                  'status':{'allocation':{'devices':{
                     'results':[{'request':'r','driver':'gpu.example.com','pool':'p1','device':'d0','adminAccess':false,
                       'tolerations':[{'operator':'Exists','tolerationSeconds':5}],'shareID':'abc','consumedCapacity':{'memory':'10Gi'}}],
                     'config':[{'source':'FromClaim','requests':['r'],'opaque':{'driver':'gpu.example.com','parameters':{}}}]},
                    'nodeSelector':{'nodeSelectorTerms':[{'matchFields':[{'key':'metadata.name','operator':'In','values':['n1']}]}]}},
                   'reservedFor':[{'apiGroup':'scheduling.k8s.io','resource':'podgroups','name':'pg','uid':'u'}]}}],
                 'resourceClaimTemplates':[{'metadata':{'name':'t','namespace':'ns'},'spec':{'spec':{'devices':{
                   'requests':[{'name':'g','exactly':{'deviceClassName':'gpu'}}]}}}}]}}
                """);
        RequestDocument grpc = viaGrpc(json);
        assertThat(grpc).isEqualTo(viaRest(json));
        // spot checks that the comparison is not vacuous
        var s = grpc.snapshot();
        var d = s.resourceSlices().get(0).spec().devices().get(0);
        assertThat(d.attributes().get("i").intValue()).isEqualTo(3L);
        assertThat(d.attributes().get("b").boolValue()).isFalse();
        assertThat(d.attributes().get("v").versionValue()).isEqualTo("1.2.3");
        assertThat(d.attributes().get("z").intValue()).isZero();
        assertThat(d.capacity().get("memory").requestPolicy().defaultValue()).isEqualTo(Qty.of("10Gi"));
        assertThat(s.resourceSlices().get(0).spec().pool().generation()).isZero();
        var exact = s.resourceClaims().get(0).spec().devices().requests().get(0).exactly();
        assertThat(exact.adminAccess()).isFalse();
        assertThat(exact.tolerations().get(0).tolerationSeconds()).isZero();
        assertThat(exact.tolerations().get(1).tolerationSeconds()).isNull();
        assertThat(s.resourceClaims().get(0).status().allocation().devices().results().get(0).shareID())
                .isEqualTo("abc");
        assertThat(s.deviceClasses().get(0).spec().config().get(0).opaque().parameters().toString())
                .isEqualTo("{\"a\":1,\"b\":[true,null,1.5,\"x\"],\"c\":{\"d\":-7,\"e\":12345678901}}");
        assertThat(s.pods().get(0).status().resourceClaimStatuses()).hasSize(2);
        assertThat(s.podGroups().get(0).status().resourceClaimStatuses().get(0).resourceClaimName())
                .isEqualTo("pg-s-x2");
        var extended = s.pods().get(0).status().extendedResourceClaimStatus();
        assertThat(extended.resourceClaimName()).isEqualTo("p-extended-resources-x3");
        assertThat(extended.requestMappings()).containsExactly(
                new Kube.ExtendedRequestMapping("main", "example.com/gpu", "container-0-request-0"));
    }

    @Test
    void anEmptySchedulingGroupStaysPresentSoValidationCanReportItsName() throws Exception {
        RequestDocument d = viaGrpc(q("{'snapshot':{'nodes':[{'metadata':{'name':'n'}}],"
                + "'pods':[{'metadata':{'name':'p'},'spec':{'schedulingGroup':{}}}]}}"));
        assertThat(d.snapshot().pods().get(0).spec().schedulingGroup()).isNotNull();
        assertThat(d.snapshot().pods().get(0).spec().schedulingGroup().podGroupName()).isNull();
        assertThat(d).isEqualTo(viaRest(q("{'snapshot':{'nodes':[{'metadata':{'name':'n'}}],"
                + "'pods':[{'metadata':{'name':'p'},'spec':{'schedulingGroup':{}}}]}}")));
    }

    @Test
    void aQuantitySentAsAJsonNumberKeepsItsText() throws Exception {
        String json = q("{'snapshot':{'nodes':[{'metadata':{'name':'n'},'status':{'allocatable':{'cpu':16,'memory':'64Gi'}}}]}}");
        RequestDocument d = viaGrpc(json);
        assertThat(d.snapshot().nodes().get(0).status().allocatable()).containsEntry("cpu", Qty.of("16"));
        assertThat(d).isEqualTo(viaRest(json));
    }

    @Test
    void anAllocatableSentEmptyMeansNothingAllocatableAsInRest() throws Exception {
        String rest = q("{'snapshot':{'nodes':[{'metadata':{'name':'n'},'status':{'allocatable':{},'capacity':{'cpu':'8'}}}]}}");
        RequestDocument d = GrpcRequestMapper.toDocument(DecideRequest.newBuilder()
                .setSnapshot(dev.muster.grpc.v1.Snapshot.newBuilder().addNodes(dev.muster.grpc.v1.Node.newBuilder()
                        .setMetadata(dev.muster.grpc.v1.ObjectMeta.newBuilder().setName("n"))
                        .setStatus(dev.muster.grpc.v1.NodeStatus.newBuilder().setAllocatableSet(true)
                                .putCapacity("cpu", "8"))))
                .build());
        assertThat(d.snapshot().nodes().get(0).status().allocatable()).isNotNull().isEmpty();
        assertThat(d).isEqualTo(viaRest(rest));
        // The same in proto3 JSON: the field's JSON name is allocatableSet.
        assertThat(viaGrpc(rest.replace("\"allocatable\":{}", "\"allocatable\":{},\"allocatableSet\":true")))
                .isEqualTo(viaRest(rest));
    }

    @Test
    void allocatableSetDoesNotChangeANonEmptyAllocatable() throws Exception {
        String json = q("{'snapshot':{'nodes':[{'metadata':{'name':'n'},'status':{'allocatable':{'cpu':'4'},'capacity':{'cpu':'8'}}}]}}");
        assertThat(viaGrpc(json.replace("\"allocatable\"", "\"allocatableSet\":true,\"allocatable\"")))
                .isEqualTo(viaGrpc(json)).isEqualTo(viaRest(json));
    }

    @Test
    void aMissingSnapshotIsNullAsInRest() throws Exception {
        assertThat(viaGrpc("{}").snapshot()).isNull();
        assertThat(viaGrpc("{}").options()).isNull();
    }

    /**
     * proto3 cannot tell [] or "" from absent: these are the documented differences from the REST decoding. An empty
     * allocatable without {@code allocatableSet} is one of them.
     */
    @Test
    void emptyListsAndStringsReadAsAbsent() throws Exception {
        assertThat(viaGrpc(q("{'snapshot':{'nodes':[{'metadata':{'name':'n'},'status':{'allocatable':{}}}]}}"))
                .snapshot().nodes().get(0).status().allocatable()).isNull();
        RequestDocument d = viaGrpc(q("{'snapshot':{'nodes':[],'pods':[{'metadata':{'name':'p'},'spec':{'nodeName':''}}]},"
                + "'podGroups':[]}"));
        assertThat(d.snapshot().nodes()).isNull();
        assertThat(d.podGroups()).isNull();
        assertThat(d.snapshot().pods().get(0).spec().nodeName()).isNull();
    }
}
