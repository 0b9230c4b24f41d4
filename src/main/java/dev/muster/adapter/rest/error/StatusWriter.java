package dev.muster.adapter.rest.error;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.nio.charset.StandardCharsets;

/**
 * Encodes Status bodies with its own mapper (Quarkus's ObjectMapper customizations must not change error bodies),
 * for JAX-RS responses and for the raw Vert.x answers (413 before a body is read, 404 outside JAX-RS).
 */
public final class StatusWriter {
    private static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private StatusWriter() {
    }

    public static byte[] bytes(KubeStatus s) {
        try {
            return MAPPER.writeValueAsBytes(s);
        } catch (JsonProcessingException e) {
            return ("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"code\":"
                    + s.code() + "}").getBytes(StandardCharsets.UTF_8);
        }
    }

    public static Response response(KubeStatus s) {
        return Response.status(s.code()).type(MediaType.APPLICATION_JSON_TYPE).entity(bytes(s)).build();
    }
}
