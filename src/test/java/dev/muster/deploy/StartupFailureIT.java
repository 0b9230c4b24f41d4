package dev.muster.deploy;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The packaged jar started with a configuration it cannot run with: it exits with a non-zero status and says why on
 * its output, with the console of the default configuration. Run by failsafe in {@code verify}, after
 * packaging.
 */
class StartupFailureIT {
    private static final Path JAR = Path.of("target/quarkus-app/quarkus-run.jar");

    /** What the process printed (stdout and stderr together) and its exit status. */
    private record Run(int status, String output) {
    }

    private static Run start(Map<String, String> env) throws IOException, InterruptedException {
        assumeTrue(Files.exists(JAR), "the fast-jar is packaged (not a native build)");
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder pb = new ProcessBuilder(List.of(java, "-jar", JAR.toString())).redirectErrorStream(true);
        // free ports, so that a test instance or another run on the machine does not change the failure
        pb.environment().put("QUARKUS_HTTP_PORT", "0");
        pb.environment().put("QUARKUS_HTTP_SSL_PORT", "0");
        pb.environment().putAll(env);
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes(); // until the process closes its output
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("still running after 60 s: " + new String(out, StandardCharsets.UTF_8));
        }
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    @Test
    void aMissingCertificateIsPrintedAndTheProcessFails() throws Exception {
        Run run = start(Map.of("QUARKUS_PROFILE", "prod,tls",
                "QUARKUS_TLS_MUSTER_KEY_STORE_PEM_0_CERT", "/nonexistent/muster-tls/tls.crt",
                "QUARKUS_TLS_MUSTER_KEY_STORE_PEM_0_KEY", "/nonexistent/muster-tls/tls.key"));
        assertThat(run.status()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("/nonexistent/muster-tls/tls.crt");
    }

    @Test
    void aLimitThatIsNotANumberIsPrintedAndTheProcessFails() throws Exception {
        Run run = start(Map.of("MUSTER_LIMITS_MAX_CAUSES", "many"));
        assertThat(run.status()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("muster.limits.max-causes").contains("many");
    }
}
