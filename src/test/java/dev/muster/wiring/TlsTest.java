package dev.muster.wiring;

import grpc.health.v1.HealthGrpc;
import grpc.health.v1.HealthOuterClass;
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.TlsChannelCredentials;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.certs.PemCertificateFiles;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The {@code tls} configuration profile of application.properties (docs/install.md, "TLS"), with the certificate paths pointed
 * at certificates generated for the test: REST and gRPC answer over HTTPS on the one port, with the server's
 * certificate trusted; plain HTTP is not served.
 */
@QuarkusTest
@TestProfile(TlsTest.Tls.class)
class TlsTest {
    public static class Tls implements QuarkusTestProfile {
        @Override
        public String getConfigProfile() {
            return "test,tls";
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            PemCertificateFiles pem = TestCertificates.pem();
            return Map.of("%tls.quarkus.tls.muster.key-store.pem.0.cert", pem.certFile().toString(),
                    "%tls.quarkus.tls.muster.key-store.pem.0.key", pem.keyFile().toString());
        }
    }

    static int httpsPort() {
        return ConfigProvider.getConfig().getOptionalValue("quarkus.http.test-ssl-port", Integer.class).orElse(8444);
    }

    static int httpPort() {
        return ConfigProvider.getConfig().getOptionalValue("quarkus.http.test-port", Integer.class).orElse(8081);
    }

    static HttpResponse<String> post(HttpClient client, String scheme, int port, String path, byte[] body)
            throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create(scheme + "://localhost:" + port + path))
                        .timeout(Duration.ofSeconds(60))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static byte[] trainingJob() throws IOException {
        return Files.readAllBytes(Path.of("openapi/examples/training-job.json"));
    }

    @Test
    void restAnswersOverHttpsWithTheServerCertificateTrusted() throws Exception {
        HttpClient client = HttpClient.newBuilder().sslContext(TestCertificates.clientContext(false)).build();
        HttpResponse<String> r = post(client, "https", httpsPort(), "/v1/decisions", trainingJob());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("\"outcome\":\"Scheduled\"");
    }

    @Test
    void aClientThatDoesNotTrustTheCertificateIsRefused() throws Exception {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        assertThatThrownBy(() -> post(client, "https", httpsPort(), "/v1/decisions", trainingJob()))
                .isInstanceOf(IOException.class);
    }

    @Test
    void plainHttpIsNotServed() {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        assertThatThrownBy(() -> post(client, "http", httpPort(), "/v1/decisions", trainingJob()))
                .isInstanceOf(IOException.class);
    }

    @Test
    void grpcAnswersOverTlsOnTheSamePort() throws Exception {
        PemCertificateFiles pem = TestCertificates.pem();
        ManagedChannel channel = Grpc.newChannelBuilderForAddress("localhost", httpsPort(),
                TlsChannelCredentials.newBuilder().trustManager(pem.trustFile().toFile()).build()).build();
        try {
            HealthOuterClass.HealthCheckResponse r = HealthGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(60, TimeUnit.SECONDS)
                    .check(HealthOuterClass.HealthCheckRequest.newBuilder().setService("").build());
            assertThat(r.getStatus()).isEqualTo(HealthOuterClass.HealthCheckResponse.ServingStatus.SERVING);
        } finally {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }
}
