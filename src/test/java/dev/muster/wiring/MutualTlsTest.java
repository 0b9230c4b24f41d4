package dev.muster.wiring;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.certs.PemCertificateFiles;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The {@code tls} and {@code mtls} configuration profiles together (docs/install.md, "TLS"): a client without a certificate
 * the server trusts is refused during the handshake; with the client certificate, the call succeeds.
 */
@QuarkusTest
@TestProfile(MutualTlsTest.MutualTls.class)
class MutualTlsTest {
    public static class MutualTls implements QuarkusTestProfile {
        @Override
        public String getConfigProfile() {
            return "test,tls,mtls";
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            PemCertificateFiles pem = TestCertificates.pem();
            return Map.of("%tls.quarkus.tls.muster.key-store.pem.0.cert", pem.certFile().toString(),
                    "%tls.quarkus.tls.muster.key-store.pem.0.key", pem.keyFile().toString(),
                    "%mtls.quarkus.tls.muster.trust-store.pem.certs", pem.serverTrustFile().toString());
        }
    }

    @Test
    void withoutAClientCertificateTheCallIsRefused() throws Exception {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
                .sslContext(TestCertificates.clientContext(false)).build();
        assertThatThrownBy(() -> TlsTest.post(client, "https", TlsTest.httpsPort(), "/v1/validations",
                TlsTest.trainingJob())).isInstanceOf(IOException.class);
    }

    @Test
    void withTheClientCertificateTheCallSucceeds() throws Exception {
        HttpClient client = HttpClient.newBuilder().sslContext(TestCertificates.clientContext(true)).build();
        HttpResponse<String> r = TlsTest.post(client, "https", TlsTest.httpsPort(), "/v1/validations",
                TlsTest.trainingJob());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("{\"valid\":true}");
    }
}
