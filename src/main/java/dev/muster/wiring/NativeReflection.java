package dev.muster.wiring;

import dev.muster.adapter.clusterview.SnapshotPart;
import dev.muster.adapter.extender.ExtenderWire;
import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.KubeDra;
import dev.muster.adapter.kube.Qty;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.adapter.rest.DecisionResponse;
import dev.muster.adapter.rest.ValidationResource;
import dev.muster.adapter.rest.error.KubeStatus;
import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeList;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetList;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassList;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimList;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateList;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceList;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassList;
import io.fabric8.kubernetes.api.model.scheduling.v1alpha2.PodGroup;
import io.fabric8.kubernetes.api.model.scheduling.v1alpha2.PodGroupList;
import io.fabric8.kubernetes.api.model.scheduling.v1alpha2.Workload;
import io.fabric8.kubernetes.api.model.scheduling.v1alpha2.WorkloadList;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Native image: the types Jackson binds by reflection, which the native build cannot discover on its own (the codecs
 * build their own mappers and name the types at run time). JVM builds ignore this class.
 * <ul>
 *   <li>{@link Types}: Muster's wire records, read and written with the codecs' own mappers (REST, extender,
 *   cluster view), with every nested record ({@code ignoreNested = false});</li>
 *   <li>{@link ClusterViewTypes}: the fabric8 objects the Kubernetes cluster view lists, watches and serializes
 *   again, with everything reachable from their fields ({@code registerFullHierarchy}; the native profile in
 *   pom.xml indexes the fabric8 model jars so that hierarchy can be walked).</li>
 * </ul>
 * A test ({@code NativeReflectionTest}) walks the records reachable from the codecs' entry types and fails when one is
 * not covered here.
 */
public final class NativeReflection {
    private NativeReflection() {
    }

    @RegisterForReflection(ignoreNested = false, targets = {
            RequestDocument.class, Kube.class, KubeDra.class, Qty.class,
            ExtenderWire.class, SnapshotPart.class,
            DecisionResponse.class, ValidationResource.Valid.class, KubeStatus.class})
    public static final class Types {
        private Types() {
        }
    }

    @RegisterForReflection(registerFullHierarchy = true, targets = {
            Node.class, NodeList.class, Pod.class, PodList.class, Binding.class,
            PodGroup.class, PodGroupList.class, Workload.class, WorkloadList.class,
            PriorityClass.class, PriorityClassList.class,
            PodDisruptionBudget.class, PodDisruptionBudgetList.class,
            DeviceClass.class, DeviceClassList.class, ResourceSlice.class, ResourceSliceList.class,
            ResourceClaim.class, ResourceClaimList.class, ResourceClaimTemplate.class, ResourceClaimTemplateList.class})
    public static final class ClusterViewTypes {
        private ClusterViewTypes() {
        }
    }
}
