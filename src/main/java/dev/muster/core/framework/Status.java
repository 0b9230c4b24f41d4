package dev.muster.core.framework;

import java.util.List;

/**
 * A plugin's verdict: a {@link Code} plus reasons in kube-scheduler's own wording (for example
 * {@code "Insufficient cpu"} or {@code "node(s) had untolerated taint {gpu: true}"}), and the plugin that said it.
 */
public record Status(Code code, List<String> reasons, String plugin) {
    public static final Status SUCCESS = new Status(Code.Success, List.of(), null);
    public static final Status SKIP = new Status(Code.Skip, List.of(), null);

    public Status {
        reasons = reasons == null ? List.of() : List.copyOf(reasons);
    }

    public static Status unschedulable(String plugin, String... reasons) {
        return new Status(Code.Unschedulable, List.of(reasons), plugin);
    }

    public static Status unresolvable(String plugin, String... reasons) {
        return new Status(Code.UnschedulableAndUnresolvable, List.of(reasons), plugin);
    }

    public static Status waiting(String plugin, String reason) {
        return new Status(Code.Wait, List.of(reason), plugin);
    }

    public static Status error(String plugin, String reason) {
        return new Status(Code.Error, List.of(reason), plugin);
    }

    public boolean isSuccess() {
        return code == Code.Success;
    }

    public boolean isRejected() {
        return code == Code.Unschedulable || code == Code.UnschedulableAndUnresolvable;
    }

    public String message() {
        return String.join(", ", reasons);
    }
}
