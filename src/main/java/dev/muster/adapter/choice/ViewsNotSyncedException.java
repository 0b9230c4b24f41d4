package dev.muster.adapter.choice;

import java.util.Map;

/** Watched clusters a choice named whose views have not loaded yet: what each still waits for, by name. */
public final class ViewsNotSyncedException extends RuntimeException {
    private final transient Map<String, java.util.List<String>> waiting;

    public ViewsNotSyncedException(Map<String, java.util.List<String>> waiting) {
        super(message(waiting));
        this.waiting = Map.copyOf(waiting);
    }

    public Map<String, java.util.List<String>> waiting() {
        return waiting;
    }

    private static String message(Map<String, java.util.List<String>> waiting) {
        StringBuilder sb = new StringBuilder(waiting.size() == 1 ? "the watched cluster " : "the watched clusters ");
        int i = 0;
        for (Map.Entry<String, java.util.List<String>> e : new java.util.TreeMap<>(waiting).entrySet()) {
            sb.append(i++ == 0 ? "" : ", ").append('"').append(e.getKey()).append("\" (waiting for ")
                    .append(String.join(", ", e.getValue())).append(')');
        }
        return sb.append(waiting.size() == 1 ? " is" : " are").append(" not synced yet: ask again once readiness "
                + "reports it synced").toString();
    }
}
