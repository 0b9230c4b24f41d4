package dev.muster.adapter.grpc;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;

import java.util.List;

/**
 * Finds the field of a string over the length limit in a request message, for the {@code INVALID_ARGUMENT} that
 * names it. Walks the message by reflection, so it runs only after {@link GrpcRequestMapper} has met such a string
 * (never on a valid request). Paths use the proto3 JSON names, which are the Kubernetes names, in the REST form:
 * {@code snapshot.nodes[0].metadata.labels[example.com/zone]}. Protobuf parsing caps nesting at 100 levels, so the
 * recursion is bounded.
 */
final class GrpcStringLimit {
    /** Longest map key shown in a path; a key over the limit is shown cut to this length. */
    private static final int KEY_SHOWN = 256;

    private GrpcStringLimit() {
    }

    /** The path of the first string (or map key) longer than {@code max} characters, or null when there is none. */
    static String firstTooLong(Message m, int max) {
        return walk(m, "", max);
    }

    private static String walk(Message m, String path, int max) {
        for (FieldDescriptor f : m.getDescriptorForType().getFields()) {
            String at = path.isEmpty() ? f.getJsonName() : path + "." + f.getJsonName();
            if (f.isMapField()) {
                FieldDescriptor keyField = f.getMessageType().findFieldByNumber(1);
                FieldDescriptor valueField = f.getMessageType().findFieldByNumber(2);
                for (Object o : (List<?>) m.getField(f)) {
                    Message entry = (Message) o;
                    String key = String.valueOf(entry.getField(keyField));
                    String entryPath = at + "[" + (key.length() > KEY_SHOWN ? key.substring(0, KEY_SHOWN) : key) + "]";
                    if (key.length() > max) {
                        return entryPath;
                    }
                    String found = value(entry.getField(valueField), entryPath, max);
                    if (found != null) {
                        return found;
                    }
                }
            } else if (f.isRepeated()) {
                List<?> items = (List<?>) m.getField(f);
                for (int i = 0; i < items.size(); i++) {
                    String found = value(items.get(i), at + "[" + i + "]", max);
                    if (found != null) {
                        return found;
                    }
                }
            } else if (f.getJavaType() == FieldDescriptor.JavaType.STRING
                    || (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE && m.hasField(f))) {
                String found = value(m.getField(f), at, max);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    private static String value(Object v, String path, int max) {
        if (v instanceof String s) {
            return s.length() > max ? path : null;
        }
        if (v instanceof Message child) {
            return walk(child, path, max);
        }
        return null;
    }
}
