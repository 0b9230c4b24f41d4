package dev.muster.adapter.grpc;

import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import org.eclipse.microprofile.config.ConfigProvider;

import java.util.concurrent.TimeUnit;

/** A plain gRPC client channel to the test instance: gRPC shares the HTTP port (8081 in tests). */
final class GrpcChannels {
    private GrpcChannels() {
    }

    static int port() {
        return ConfigProvider.getConfig().getOptionalValue("quarkus.http.test-port", Integer.class).orElse(8081);
    }

    static ManagedChannel open() {
        return ManagedChannelBuilder.forAddress("localhost", port()).usePlaintext()
                .maxInboundMessageSize(512 * 1024 * 1024).build();
    }

    static void close(ManagedChannel channel) throws InterruptedException {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
}
