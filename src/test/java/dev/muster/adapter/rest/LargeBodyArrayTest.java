package dev.muster.adapter.rest;

import dev.muster.adapter.rest.error.StatusException;
import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which array a {@link LargeBodies.Body} ends up in, and that its bytes are the delivered ones whichever it is. */
class LargeBodyArrayTest {
    private static byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + 7);
        }
        return b;
    }

    /** A view of {@code array}'s range, as {@link BodyCapture} hands it on. */
    private static Buffer view(byte[] array, int from, int n) {
        return Buffer.buffer(Unpooled.wrappedBuffer(array, from, n));
    }

    @Test
    void viewsOfTheCapturedArrayInOrderAreTakenInPlace() {
        byte[] captured = pattern(1000);
        LargeBodies.Body body = new LargeBodies.Body(1000, captured);
        body.take(view(captured, 0, 300));
        body.take(view(captured, 300, 700));
        body.end(null);
        assertThat(body.bytes()).isSameAs(captured);
        assertThat(body.adopted()).isTrue();
    }

    @Test
    void aFirstChunkThatIsNotTheCapturedArraysStartGoesToANewArray() {
        byte[] expected = pattern(1000);
        byte[] captured = new byte[1000];
        // the first 100 bytes reached Vert.x before the capture was armed; the capture then wrote the rest from 0
        System.arraycopy(expected, 100, captured, 0, 900);
        LargeBodies.Body body = new LargeBodies.Body(1000, captured);
        body.take(Buffer.buffer(Arrays.copyOfRange(expected, 0, 100)));
        body.take(view(captured, 0, 900));
        body.end(null);
        assertThat(body.adopted()).isFalse();
        assertThat(body.bytes()).isNotSameAs(captured).isEqualTo(expected);
    }

    @Test
    void aViewOutOfPlaceIsCopiedToWhereTheDeliveredBytesEnd() {
        byte[] expected = pattern(1000);
        byte[] captured = expected.clone();
        Arrays.fill(captured, 500, 1000, (byte) 0); // the capture did not write there
        LargeBodies.Body body = new LargeBodies.Body(1000, captured);
        body.take(view(captured, 0, 500));
        byte[] other = new byte[600];
        System.arraycopy(expected, 500, other, 100, 500);
        body.take(view(other, 100, 500));
        body.end(null);
        assertThat(body.bytes()).isSameAs(captured).isEqualTo(expected);
    }

    @Test
    void withoutACapturedArrayEveryChunkIsCopied() {
        byte[] expected = pattern(1000);
        LargeBodies.Body body = new LargeBodies.Body(1000, null);
        body.take(Buffer.buffer(Arrays.copyOfRange(expected, 0, 1)));
        body.take(Buffer.buffer(Arrays.copyOfRange(expected, 1, 1000)));
        body.end(null);
        assertThat(body.adopted()).isFalse();
        assertThat(body.bytes()).isEqualTo(expected);
    }

    @Test
    void aBodyThatEndsShortIsABadRequestEvenInTheCapturedArray() {
        byte[] captured = pattern(1000);
        LargeBodies.Body body = new LargeBodies.Body(1000, captured);
        body.take(view(captured, 0, 400));
        body.end(null);
        assertThatThrownBy(body::bytes).isInstanceOf(StatusException.class)
                .hasMessageContaining("ended after 400 of the 1000 bytes");
    }

    @Test
    void aBodyThatNeverSendsAByteFailsTheWaitingReaderWhenItEnds() {
        LargeBodies.Body body = new LargeBodies.Body(1000, new byte[1000]);
        body.end(null);
        assertThatThrownBy(body::arriving).isInstanceOf(StatusException.class)
                .hasMessageContaining("ended after 0 of the 1000 bytes");
    }

    @Test
    void aReleasedBodyLetsItsArrayGoAndPlacesNoFurtherChunk() {
        byte[] captured = pattern(1000);
        LargeBodies.Body body = new LargeBodies.Body(1000, captured);
        body.take(view(captured, 0, 1000));
        body.end(null);
        assertThat(body.bytes()).isSameAs(captured);
        assertThat(body.holds(captured)).isTrue();
        body.release();
        assertThat(body.holds(captured)).isFalse();
        assertThat(body.bytes()).isEmpty();
        byte[] copied = pattern(1000);
        LargeBodies.Body other = new LargeBodies.Body(1000, null);
        other.take(Buffer.buffer(Arrays.copyOfRange(copied, 0, 10)));
        byte[] array = other.arriving();
        other.release();
        other.take(Buffer.buffer(Arrays.copyOfRange(copied, 10, 20)));
        assertThat(other.holds(array)).isFalse();
        assertThat(array[10]).isZero(); // nothing placed after the release
    }
}
