package dev.muster.adapter.validation;

import dev.muster.adapter.kube.KubeList;
import dev.muster.adapter.kube.RequestDocument;

import java.util.List;

/**
 * The snapshot's lists sent as the list object kubectl prints ({@link KubeList}): the object's {@code kind} must be
 * {@code List} or the typed list of the part ({@code NodeList} for {@code snapshot.nodes}, ...), reported on
 * {@code snapshot.<part>.kind}. Its items are checked by their own family, with the paths they have in the array
 * form ({@code snapshot.nodes[3]}).
 */
final class ListObjectRules implements ObjectFamily {

    @Override
    public void validate(RequestDocument.Snapshot s, ValidationLimits limits, FieldPath p, Causes c) {
        check(s.nodes(), ".nodes", "NodeList", p, c);
        check(s.pods(), ".pods", "PodList", p, c);
        check(s.podGroups(), ".podGroups", "PodGroupList", p, c);
        check(s.workloads(), ".workloads", "WorkloadList", p, c);
        check(s.priorityClasses(), ".priorityClasses", "PriorityClassList", p, c);
        check(s.podDisruptionBudgets(), ".podDisruptionBudgets", "PodDisruptionBudgetList", p, c);
        check(s.deviceClasses(), ".deviceClasses", "DeviceClassList", p, c);
        check(s.resourceSlices(), ".resourceSlices", "ResourceSliceList", p, c);
        check(s.resourceClaims(), ".resourceClaims", "ResourceClaimList", p, c);
        check(s.resourceClaimTemplates(), ".resourceClaimTemplates", "ResourceClaimTemplateList", p, c);
        check(s.jobs(), ".jobs", "JobList", p, c);
        check(s.compositePodGroups(), ".compositePodGroups", "CompositePodGroupList", p, c);
        check(s.hyperNodes(), ".hyperNodes", "HyperNodeList", p, c);
    }

    /**
     * A cause when {@code list} is a list object of another kind: {@code FieldValueRequired} without a kind,
     * {@code FieldValueNotSupported} for any kind but {@code List} and {@code typed}. {@code field} is the part's
     * suffix under {@code p} ({@code ".nodes"}).
     */
    static void check(List<?> list, String field, String typed, FieldPath p, Causes c) {
        if (!(list instanceof KubeList<?> l)) {
            return;
        }
        String kind = l.kind();
        if (kind == null || kind.isEmpty()) {
            c.required(p.at(field + ".kind"), "a list object must say its kind: \"List\" or \"" + typed + "\"");
        } else if (!kind.equals("List") && !kind.equals(typed)) {
            c.notSupported(p.at(field + ".kind"), kind, List.of("List", typed));
        }
    }
}
