package dev.muster.adapter.grpc;

import io.grpc.Context;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class GrpcDeadlineInterceptorTest {
    @ParameterizedTest(name = "grpc-timeout \"{0}\" is {1} ns")
    @CsvSource(nullValues = "null", value = {
            "500m, 500000000",
            "2S, 2000000000",
            "1H, 3600000000000",
            "3M, 180000000000",
            "250u, 250000",
            "99999999n, 99999999",
            "null, -1",
            "'', -1",
            "m, -1",
            "10x, -1",
            "-5m, -1",
            "123456789m, -1"})
    void parsesTheGrpcTimeoutHeader(String header, long nanos) {
        assertThat(GrpcDeadlineInterceptor.timeoutNanos(header)).isEqualTo(nanos);
    }

    /** A call whose deadline is the server's limit is told so; one under the client's own deadline is not. */
    @Test
    void aDeadlineExceededNamesTheServerLimitWhenThatWasTheDeadline() throws Exception {
        String limited = Context.current().withValue(GrpcDeadlineInterceptor.SERVER_LIMIT,
                        "the server's limit of 3s per call (muster.grpc.max-call-duration)")
                .call(() -> GrpcErrors.deadlineExceeded("while deciding").getStatus().getDescription());
        assertThat(limited).startsWith("the server's limit of 3s per call (muster.grpc.max-call-duration) passed "
                + "while deciding");
        String client = GrpcErrors.deadlineExceeded("while deciding").getStatus().getDescription();
        assertThat(client).startsWith("deadline passed while deciding").doesNotContain("max-call-duration");
    }

    @Test
    void aLimitOfZeroOrLessIsRefusedAtStartup() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new GrpcDeadlineInterceptor(java.time.Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("muster.grpc.max-call-duration");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> new GrpcDeadlineInterceptor(java.time.Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be positive");
    }
}
