package dev.muster.wiring;

import io.quarkus.vertx.http.HttpServerOptionsCustomizer;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.http.HttpServerOptions;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

/**
 * Applies {@code muster.tls.client-auth} to the HTTPS server at startup. Quarkus's own
 * {@code quarkus.http.ssl.client-auth} is fixed when the application is built, so it cannot be switched on by a
 * runtime configuration profile ({@code mtls}); this runtime key can. The certificates it accepts are those of the
 * TLS configuration's trust store ({@code quarkus.tls.muster.trust-store.*}).
 */
@Singleton
public class ClientCertificates implements HttpServerOptionsCustomizer {
    private final ClientAuth clientAuth;

    @Inject
    ClientCertificates(MusterConfig config) {
        this.clientAuth = config.tls().clientAuth();
    }

    @Override
    public void customizeHttpsServer(HttpServerOptions options) {
        if (clientAuth != ClientAuth.NONE) {
            options.setClientAuth(clientAuth);
        }
    }
}
