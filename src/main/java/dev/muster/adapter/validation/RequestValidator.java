package dev.muster.adapter.validation;

import dev.muster.adapter.kube.PastedObjects;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.adapter.kube.SnapshotList;

import java.util.ArrayList;
import java.util.List;

/**
 * The API invariants of a request, checked on the decoded lean records and reported all at once, each with the
 * Kubernetes cause reason and the field path from the request root
 * ({@code snapshot.pods[3].spec.schedulingGroup.podGroupName}). Shared by REST, gRPC and the extender.
 *
 * <p>This class checks the request envelope (the snapshot is present, the {@code podGroups} names are well-formed)
 * and runs one {@link ObjectFamily} per family of snapshot objects, in the order of {@link #FAMILIES}; the shared
 * mechanics are {@link FieldPath} (paths rendered only when a cause is reported), {@link Causes} (the bounded list of
 * causes), {@link ObjectLists} (limits, metadata, duplicate names) and {@link FieldRules} (field formats).
 *
 * <p>Why not Hibernate Validator on the records: a request holds up to hundreds of thousands of objects, and
 * bean validation walks them reflectively with constraint metadata per property (measurably slower than parsing
 * itself), reports paths in its own notation and messages without Kubernetes cause reasons, and cannot express the
 * cross-field rules (unions, duplicates per namespace, gates vs nodeName) without custom validators anyway. Here each
 * rule is a plain check that emits exactly the cause the API server would, and names are checked by hand-written
 * scanners ({@link Names}). Hibernate Validator validates the {@code @ConfigMapping} configuration, where it is the
 * Quarkus convention.
 *
 * <p>Quantities that do not parse are {@code FieldValueInvalid} causes (422) rather than decoding errors, so all of
 * them are reported at once.
 */
public final class RequestValidator {
    /** The snapshot's object families, in the order their causes are reported. */
    private static final List<ObjectFamily> FAMILIES = List.of(
            new ListObjectRules(),
            new NodeRules(),
            new PodRules(),
            new PodGroupRules(),
            new GangMemberRules(),
            new CompositeRules(),
            new HyperNodeRules(),
            new OtherObjectRules(),
            new DraRules());

    private final ValidationLimits limits;

    public RequestValidator(ValidationLimits limits) {
        this.limits = limits;
    }

    /** The list-length limits this validator applies. */
    public ValidationLimits limits() {
        return limits;
    }

    /** Every cause of the request; empty when it is valid. */
    public Causes validate(RequestDocument doc) {
        return validate(doc, null);
    }

    /**
     * As {@link #validate(RequestDocument)}, for a body that may have been pasted from kubectl: when the snapshot is
     * missing and the body says it is a kubectl {@code List} or object ({@code pasted}, null when it says nothing),
     * the cause says where its objects belong.
     */
    public Causes validate(RequestDocument doc, PastedObjects pasted) {
        Causes c = new Causes(limits.maxCauses());
        if (doc == null || doc.snapshot() == null) {
            c.required("snapshot", pasted == null ? "the cluster snapshot must be set" : misplaced(pasted));
            return c;
        }
        validateGroupNames(doc.podGroups(), c);
        validateSnapshot(doc.snapshot(), new FieldPath("snapshot"), c);
        PlainPodNames.validate(doc.pods(), doc.snapshot(), limits.maxPods(), c);
        return c;
    }

    /** Validates a bare snapshot (the extender's snapshot file) with paths under {@code root}. */
    public Causes validateSnapshot(RequestDocument.Snapshot s, String root) {
        Causes c = new Causes(limits.maxCauses());
        validateSnapshot(s, new FieldPath(root), c);
        return c;
    }

    /** Validates the Jobs of a {@code POST /v1/derivations} body, with paths under {@code jobs}. */
    public Causes validateJobs(List<dev.muster.adapter.kube.Kube.Job> jobs) {
        Causes c = new Causes(limits.maxCauses());
        if (jobs == null) {
            c.required("jobs", "the Jobs to derive from must be set");
            return c;
        }
        ListObjectRules.check(jobs, "jobs", "JobList", new FieldPath(""), c);
        GangMemberRules.jobs(jobs, limits, new FieldPath(""), c);
        return c;
    }

    /**
     * Every cause of a {@code POST /v1/cluster-choices} request, paths from its root
     * ({@code clusters[1].snapshot.nodes[3].metadata.name}, {@code workload.podGroups[0]...}).
     *
     * @param watched     whether the service watches a cluster of that name
     * @param maxClusters most clusters one request may name
     */
    public Causes validateChoice(dev.muster.adapter.kube.ChoiceDocument doc, java.util.function.Predicate<String> watched,
                                 int maxClusters) {
        Causes c = new Causes(limits.maxCauses());
        if (doc == null) {
            c.required("clusters", "the clusters to choose among must be set");
            c.required("workload", "the workload to place must be set");
            return c;
        }
        ChoiceRules.validate(doc, watched, maxClusters, this, c);
        return c;
    }

    /** Where the objects of a body pasted from kubectl belong in a request. */
    static String misplaced(PastedObjects pasted) {
        String kind = pasted.kind();
        if (!pasted.isList()) {
            SnapshotList l = SnapshotList.ofKind(kind);
            return "the body is a " + kind + ", not a request: " + (l == null ? "a snapshot holds no " + kind
                    + " objects" : "a " + kind + " belongs in snapshot." + l.field() + ", as in " + example(l, "[<the "
                    + kind + ">]"));
        }
        String what = "the body is a kubectl List (\"kind\": \"" + kind + "\")";
        List<String> kinds = pasted.itemKinds();
        if (kinds.isEmpty()) {
            return what + " without items, not a request: send the objects in the snapshot's lists, as in "
                    + example(SnapshotList.NODES, "[...]");
        }
        List<SnapshotList> known = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        for (String k : kinds) {
            SnapshotList l = SnapshotList.ofKind(k);
            if (l == null || !l.kind().equals(k)) {
                unknown.add(k);
            } else if (!known.contains(l)) {
                known.add(l);
            }
        }
        StringBuilder sb = new StringBuilder(what).append(" of ").append(and(kinds)).append(" objects, not a request");
        if (known.size() == 1) {
            SnapshotList l = known.get(0);
            sb.append(": a List of ").append(l.kind()).append(" objects belongs in snapshot.").append(l.field())
                    .append(", as in ").append(example(l, "<the List>"));
        } else if (!known.isEmpty()) {
            sb.append(": its ");
            for (int i = 0; i < known.size(); i++) {
                SnapshotList l = known.get(i);
                sb.append(i == 0 ? "" : i == known.size() - 1 ? " and its " : ", its ").append(l.kind())
                        .append(" items belong in snapshot.").append(l.field());
            }
            sb.append(", each list as an array of those items");
        }
        if (!unknown.isEmpty()) {
            sb.append(known.isEmpty() ? ": " : "; ").append("a snapshot holds no ").append(and(unknown))
                    .append(" objects");
        }
        return sb.toString();
    }

    private static String example(SnapshotList l, String value) {
        return l == SnapshotList.NODES ? "{\"snapshot\": {\"nodes\": " + value + "}}"
                : "{\"snapshot\": {\"nodes\": [...], \"" + l.field() + "\": " + value + "}}";
    }

    private static String and(List<String> words) {
        if (words.size() == 1) {
            return words.get(0);
        }
        return String.join(", ", words.subList(0, words.size() - 1)) + " and " + words.get(words.size() - 1);
    }

    private void validateGroupNames(List<String> groups, Causes c) {
        if (groups == null) {
            return;
        }
        if (groups.size() > limits.maxPodGroups()) {
            c.tooMany("podGroups", groups.size(), limits.maxPodGroups());
            return;
        }
        for (int i = 0; i < groups.size(); i++) {
            String g = groups.get(i);
            int slash = g == null ? -1 : g.indexOf('/');
            if (g == null || slash < 0 || !Names.isDnsLabel(g.substring(0, slash))
                    || !isGroupName(g.substring(slash + 1))) {
                c.invalid("podGroups[" + i + "]", g, "must be \"<namespace>/<name>\" with a DNS label namespace and "
                        + "a DNS subdomain name (e.g. \"some-ns/training-job-workers-pg\"), or "
                        + "\"<namespace>/<workload>/<podGroup>[/<replicaKey>]\" for a 1.35 Workload's group");
            }
        }
    }

    /** A PodGroup name, or {@code <workload>/<podGroup>[/<replicaKey>]} (the groups of 1.35 Workloads). */
    private static boolean isGroupName(String name) {
        String[] parts = name.split("/", -1);
        if (parts.length == 1) {
            return Names.isDnsSubdomain(name);
        }
        if (parts.length > 3 || !Names.isDnsSubdomain(parts[0])) {
            return false;
        }
        for (int i = 1; i < parts.length; i++) {
            if (!Names.isDnsLabel(parts[i])) {
                return false;
            }
        }
        return true;
    }

    void validateSnapshot(RequestDocument.Snapshot s, FieldPath p, Causes c) {
        for (ObjectFamily family : FAMILIES) {
            family.validate(s, limits, p, c);
        }
    }
}
