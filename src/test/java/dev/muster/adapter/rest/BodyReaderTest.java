package dev.muster.adapter.rest;

import dev.muster.adapter.rest.error.StatusException;
import io.quarkus.runtime.configuration.MemorySize;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.InputStream;
import java.math.BigInteger;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BodyReaderTest {
    private static BodyReader limit(long bytes) {
        return new BodyReader(new MemorySize(BigInteger.valueOf(bytes)));
    }

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ('a' + i % 26);
        }
        return b;
    }

    /** A stream that hides its size (available() = 0) and hands out at most 1,000 bytes per read, like a socket. */
    private static InputStream streamed(byte[] b) {
        return new FilterInputStream(new ByteArrayInputStream(b)) {
            @Override
            public int available() {
                return 0;
            }

            @Override
            public int read(byte[] buf, int off, int len) throws java.io.IOException {
                return super.read(buf, off, Math.min(len, 1000));
            }
        };
    }

    @Test
    void aBufferedBodyIsReadWhole() {
        byte[] body = bytes(38_317);
        assertThat(limit(1 << 20).read(new ByteArrayInputStream(body))).isEqualTo(body);
    }

    @Test
    void aStreamedBodyLargerThanTheFirstBufferIsReadWhole() {
        byte[] body = bytes(200_000);
        assertThat(limit(1 << 20).read(streamed(body))).isEqualTo(body);
    }

    @Test
    void aStreamThatUnderstatesItsSizeIsReadWhole() {
        byte[] body = bytes(50_000);
        InputStream understated = new FilterInputStream(new ByteArrayInputStream(body)) {
            @Override
            public int available() {
                return 10;
            }
        };
        assertThat(limit(1 << 20).read(understated)).isEqualTo(body);
    }

    @Test
    void anEmptyBodyIsNoBytes() {
        assertThat(limit(100).read(new ByteArrayInputStream(new byte[0]))).isEmpty();
    }

    @Test
    void aBodyExactlyAtTheLimitIsRead() {
        byte[] body = bytes(4096);
        assertThat(limit(4096).read(new ByteArrayInputStream(body))).isEqualTo(body);
        assertThat(limit(4096).read(streamed(body))).isEqualTo(body);
    }

    @Test
    void aBodyOverTheLimitIsATooLargeStatusWhetherBufferedOrStreamed() {
        byte[] body = bytes(4097);
        for (InputStream in : Arrays.asList(new ByteArrayInputStream(body), streamed(body))) {
            assertThatThrownBy(() -> limit(4096).read(in)).isInstanceOf(StatusException.class)
                    .satisfies(e -> assertThat(((StatusException) e).status().code()).isEqualTo(413));
        }
    }

    @Test
    void aStreamedBodyIsReadWholeWhateverItsDeclaredLength() {
        byte[] body = bytes(200_000);
        assertThat(limit(1 << 20).read(streamed(body), body.length)).isEqualTo(body);
        assertThat(limit(1 << 20).read(streamed(body), 1_000)).as("declared too short").isEqualTo(body);
        assertThat(limit(1 << 20).read(streamed(body), 300_000)).as("declared too long").isEqualTo(body);
        assertThat(limit(1 << 20).read(streamed(body), 5L << 30)).as("declared over the limit").isEqualTo(body);
    }

    @Test
    void aDeclaredLengthDoesNotLiftTheLimit() {
        byte[] body = bytes(4097);
        assertThatThrownBy(() -> limit(4096).read(streamed(body), 4096)).isInstanceOf(StatusException.class)
                .satisfies(e -> assertThat(((StatusException) e).status().code()).isEqualTo(413));
    }

    @Test
    void aBodyReadWholeBeforehandIsItsOwnArray() {
        byte[] bytes = "{\"snapshot\":{}}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        BodyReader reader = new BodyReader(new MemorySize(BigInteger.valueOf(1024)));
        LargeBodies.Body whole = new LargeBodies.Body(bytes.length, bytes);
        whole.take(io.vertx.core.buffer.Buffer.buffer(io.netty.buffer.Unpooled.wrappedBuffer(bytes)));
        whole.end(null);
        assertThat(reader.read(whole, bytes.length)).isSameAs(bytes);
        LargeBodies.Body cut = new LargeBodies.Body(10, null);
        cut.take(io.vertx.core.buffer.Buffer.buffer(new byte[4]));
        cut.end(null);
        assertThatThrownBy(() -> reader.read(cut, 10)).isInstanceOf(dev.muster.adapter.rest.error.StatusException.class)
                .hasMessageContaining("ended after 4 of the 10 bytes");
        assertThat(reader.read(new java.io.ByteArrayInputStream(bytes), bytes.length)).isNotSameAs(bytes).isEqualTo(bytes);
    }
}
