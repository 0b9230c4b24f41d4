package dev.muster.adapter.rest;

import dev.muster.adapter.rest.error.KubeStatus;
import dev.muster.adapter.rest.error.StatusException;
import io.quarkus.runtime.configuration.MemorySize;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Reads a request body into bytes, refusing more than {@code muster.limits.max-body-size} with a 413 Status.
 * Bodies with a Content-Length over the limit never get here ({@link HttpEdgeRoutes} refuses them up front); this is
 * the check for chunked bodies. Quarkus's own limit ({@code quarkus.http.limits.max-body-size}) is set higher so
 * that this check, with its Status body, fires first; Quarkus's bare 413 remains only as a backstop.
 */
@ApplicationScoped
public class BodyReader {
    private final long max;

    BodyReader(@ConfigProperty(name = "muster.limits.max-body-size", defaultValue = "128M") MemorySize max) {
        this.max = max.asLongValue();
    }

    public byte[] read(InputStream in) {
        return read(in, -1);
    }

    /**
     * @param declared the request's Content-Length, or -1: a streamed body is then read into one array of that
     *                 size (no doubling copies of a 100 MB snapshot); a body longer than declared still reads whole
     */
    public byte[] read(InputStream in, long declared) {
        if (in instanceof LargeBodies.Body read) {
            return read.bytes(); // read whole, to its Content-Length, under the limit: the array itself
        }
        try (in) {
            // a body that Quarkus REST buffered (see RequestDispatcher) is a ByteArrayInputStream whose available()
            // is its exact size: one array of that size, no doubling and no trimming copy
            int hint = declared > 0 && declared <= max ? (int) declared : in.available();
            byte[] buf = new byte[hint > 0 ? (int) Math.min(hint, max + 1) : 64 * 1024];
            int size = 0;
            while (true) {
                if (size == buf.length) {
                    if (size > max) {
                        throw tooLarge();
                    }
                    int next = in.read();
                    if (next < 0) {
                        return buf;
                    }
                    buf = Arrays.copyOf(buf, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(buf.length * 2L, 64)));
                    buf[size++] = (byte) next;
                    if (size > max) {
                        throw tooLarge(); // the byte past a buffer sized exactly at the limit
                    }
                    continue;
                }
                int n = in.read(buf, size, buf.length - size);
                if (n < 0) {
                    break;
                }
                size += n;
                if (size > max) {
                    throw tooLarge();
                }
            }
            return size == buf.length ? buf : Arrays.copyOf(buf, size);
        } catch (IOException e) {
            String m = String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT);
            if (m.contains("too large")) {
                throw tooLarge();
            }
            throw new StatusException(KubeStatus.failure(400, "BadRequest",
                    "the request body could not be read: " + e.getMessage(), null));
        }
    }

    private StatusException tooLarge() {
        return new StatusException(KubeStatus.failure(413, "RequestEntityTooLarge",
                "the request body is over the limit of " + max + " bytes (muster.limits.max-body-size)", null));
    }
}
