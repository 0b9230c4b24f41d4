package dev.muster.wiring;

import io.smallrye.certs.CertificateGenerator;
import io.smallrye.certs.CertificateRequest;
import io.smallrye.certs.Format;
import io.smallrye.certs.PemCertificateFiles;
import io.smallrye.certs.Pkcs12CertificateFiles;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;

/**
 * A server certificate (CN and SAN localhost) and a client certificate, each self-signed, generated once per test JVM
 * under {@code target/tls-certs}: PEM for the server (as a Kubernetes TLS Secret holds them), PKCS12 for the Java
 * clients. Each side's trust file holds the other side's certificate. Generated during the test run, never committed.
 */
final class TestCertificates {
    static final Path DIR = Path.of("target", "tls-certs").toAbsolutePath();
    static final String NAME = "muster";
    static final String PASSWORD = "changeit";
    /** JVM-wide, so the two class loaders a Quarkus test loads this class in generate only once. */
    private static final String GENERATED = "dev.muster.test.tls-certs.generated";

    private TestCertificates() {
    }

    static synchronized void ensure() {
        if (System.getProperty(GENERATED) != null) {
            return;
        }
        try {
            Files.createDirectories(DIR);
            new CertificateGenerator(DIR, true).generate(new CertificateRequest()
                    .withName(NAME)
                    .withCN("localhost")
                    .withSubjectAlternativeName("DNS:localhost")
                    .withPassword(PASSWORD)
                    .withClientCertificate()
                    .withDuration(Duration.ofDays(2))
                    .withFormats(List.of(Format.PEM, Format.PKCS12)));
        } catch (Exception e) {
            throw new IllegalStateException("could not generate test certificates in " + DIR, e);
        }
        System.setProperty(GENERATED, "true");
    }

    static PemCertificateFiles pem() {
        ensure();
        return new PemCertificateFiles(DIR, NAME, true, PASSWORD);
    }

    static Pkcs12CertificateFiles pkcs12() {
        ensure();
        return new Pkcs12CertificateFiles(DIR, NAME, true, PASSWORD);
    }

    /** A client context that trusts the server's certificate, presenting the client certificate when asked. */
    static SSLContext clientContext(boolean withClientCertificate) throws Exception {
        Pkcs12CertificateFiles p = pkcs12();
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(load(p.trustStoreFile()));
        KeyManagerFactory kmf = null;
        if (withClientCertificate) {
            kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(load(p.clientKeyStoreFile()), PASSWORD.toCharArray());
        }
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return ctx;
    }

    private static KeyStore load(Path file) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            ks.load(in, PASSWORD.toCharArray());
        }
        return ks;
    }
}
