package dev.muster.adapter.kube;

import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code POST /v1/cluster-choices} body on the byte path: {@code clusters} (an array of objects with a string
 * {@code name} and a {@code snapshot} object, each snapshot read as a decision's is), the {@code workload} (read as a
 * snapshot) and the options. Anything else (another type where these are expected, a repeated field) leaves the
 * fast path, and Jackson reads the body with its messages.
 */
final class ChoiceDecoder {
    private ChoiceDecoder() {
    }

    /** The body {@code p} holds, read by {@code r}'s decoders; a bail-out where it leaves the fast path. */
    static ChoiceDocument read(StreamingDecoders.Reader r, Tokens p) throws IOException {
        if (p.nextToken() != JsonToken.START_OBJECT) {
            throw ByteTokens.bail();
        }
        List<ChoiceDocument.Cluster> clusters = null;
        RequestDocument.Snapshot workload = null;
        RequestDocument.Options options = null;
        int seen = 0;
        for (JsonToken t = r.aheadNext(); t == JsonToken.FIELD_NAME; t = r.aheadNext()) {
            String f = p.currentName();
            JsonToken v = p.nextToken();
            switch (f) {
                case "clusters" -> {
                    seen = StreamingDecoders.Reader.once(seen, 0);
                    if (v != JsonToken.START_ARRAY) {
                        throw ByteTokens.bail();
                    }
                    clusters = new ArrayList<>();
                    for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
                        if (e != JsonToken.START_OBJECT) {
                            throw ByteTokens.bail();
                        }
                        clusters.add(cluster(r, p));
                    }
                }
                case "workload" -> {
                    seen = StreamingDecoders.Reader.once(seen, 1);
                    if (v != JsonToken.START_OBJECT) {
                        throw ByteTokens.bail();
                    }
                    workload = r.snapshot();
                }
                case "options" -> {
                    seen = StreamingDecoders.Reader.once(seen, 2);
                    options = r.in.other(v, f, ChoiceDocument.class);
                }
                default -> p.skipChildren();
            }
        }
        ((ByteTokens) p).expectEnd();
        return new ChoiceDocument(clusters, workload, options);
    }

    private static ChoiceDocument.Cluster cluster(StreamingDecoders.Reader r, Tokens p) throws IOException {
        String name = null;
        RequestDocument.Snapshot snapshot = null;
        int seen = 0;
        for (JsonToken t = r.aheadNext(); t == JsonToken.FIELD_NAME; t = r.aheadNext()) {
            String f = p.currentName();
            JsonToken v = p.nextToken();
            switch (f) {
                case "name" -> {
                    seen = StreamingDecoders.Reader.once(seen, 0);
                    if (v != JsonToken.VALUE_STRING) {
                        throw ByteTokens.bail();
                    }
                    name = p.getText();
                }
                case "snapshot" -> {
                    seen = StreamingDecoders.Reader.once(seen, 1);
                    if (v == JsonToken.START_OBJECT) {
                        snapshot = r.snapshot();
                    } else if (v != JsonToken.VALUE_NULL) {
                        throw ByteTokens.bail();
                    }
                }
                default -> p.skipChildren();
            }
        }
        return new ChoiceDocument.Cluster(name, snapshot);
    }
}
