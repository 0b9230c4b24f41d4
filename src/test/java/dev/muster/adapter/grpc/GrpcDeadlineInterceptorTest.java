package dev.muster.adapter.grpc;

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
}
