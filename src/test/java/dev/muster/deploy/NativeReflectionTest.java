package dev.muster.deploy;

import dev.muster.adapter.extender.ExtenderWire;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.adapter.rest.DecisionResponse;
import dev.muster.adapter.rest.ValidationResource;
import dev.muster.adapter.rest.error.KubeStatus;
import dev.muster.wiring.NativeReflection;
import io.quarkus.runtime.annotations.RegisterForReflection;
import org.junit.jupiter.api.Test;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every Muster type Jackson binds by reflection is registered for the native image: starting from the types the
 * codecs read and write (REST request and answers, extender wire types, Status), every record reachable through
 * record components is a registered target or nested (at any depth) in one registered with nested classes.
 */
class NativeReflectionTest {
    private static final Class<?>[] ENTRY = {
            RequestDocument.class, DecisionResponse.class, ValidationResource.Valid.class, KubeStatus.class,
            ExtenderWire.ExtenderArgs.class, ExtenderWire.ExtenderFilterResult.class, ExtenderWire.HostPriority.class,
            ExtenderWire.ExtenderPreemptionArgs.class, ExtenderWire.ExtenderPreemptionResult.class,
            ExtenderWire.ExtenderBindingArgs.class, ExtenderWire.ExtenderBindingResult.class};

    static Set<String> reachableMusterTypes() {
        Set<String> seen = new TreeSet<>();
        Deque<Type> todo = new ArrayDeque<>(Arrays.asList(ENTRY));
        while (!todo.isEmpty()) {
            Type t = todo.pop();
            if (t instanceof ParameterizedType p) {
                todo.push(p.getRawType());
                todo.addAll(Arrays.asList(p.getActualTypeArguments()));
            } else if (t instanceof GenericArrayType a) {
                todo.push(a.getGenericComponentType());
            } else if (t instanceof WildcardType w) {
                todo.addAll(Arrays.asList(w.getUpperBounds()));
            } else if (t instanceof Class<?> c && c.getName().startsWith("dev.muster.") && seen.add(c.getName())) {
                if (c.isRecord()) {
                    for (RecordComponent rc : c.getRecordComponents()) {
                        todo.push(rc.getGenericType());
                    }
                }
            }
        }
        return seen;
    }

    static boolean covered(String name, RegisterForReflection registration) {
        for (Class<?> target : registration.targets()) {
            if (name.equals(target.getName())
                    || (!registration.ignoreNested() && name.startsWith(target.getName() + "$"))) {
                return true;
            }
        }
        return false;
    }

    @Test
    void everyReachableWireTypeIsRegistered() {
        RegisterForReflection types = NativeReflection.Types.class.getAnnotation(RegisterForReflection.class);
        Set<String> reachable = reachableMusterTypes();
        // the walk reaches the Kubernetes records and the DRA ones, not only the entry types
        assertThat(reachable).contains("dev.muster.adapter.kube.Kube$PodSpec", "dev.muster.adapter.kube.Qty",
                "dev.muster.adapter.kube.KubeDra$DeviceClass", "dev.muster.adapter.rest.DecisionResponse$ExplanationDto");
        Set<String> missing = reachable.stream().filter(n -> !covered(n, types)).collect(Collectors.toCollection(TreeSet::new));
        assertThat(missing).as("types Jackson binds but NativeReflection.Types does not register").isEmpty();
    }

    @Test
    void theCustomQuantityDeserializerIsRegisteredWithItsRecord() {
        RegisterForReflection types = NativeReflection.Types.class.getAnnotation(RegisterForReflection.class);
        assertThat(covered("dev.muster.adapter.kube.Qty$Deserializer", types)).isTrue();
    }

    @Test
    void theClusterViewTypesAreRegisteredWithTheirWholeHierarchy() {
        RegisterForReflection view = NativeReflection.ClusterViewTypes.class.getAnnotation(RegisterForReflection.class);
        assertThat(view.registerFullHierarchy()).isTrue();
        assertThat(Arrays.stream(view.targets()).map(Class::getSimpleName))
                .contains("Node", "Pod", "Binding", "PodGroup", "Workload", "PriorityClass", "PodDisruptionBudget",
                        "DeviceClass", "ResourceSlice", "ResourceClaim", "ResourceClaimTemplate");
    }
}
