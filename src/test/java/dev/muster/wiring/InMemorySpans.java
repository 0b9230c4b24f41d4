package dev.muster.wiring;

import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * An in-memory span exporter as a CDI bean: Quarkus's OpenTelemetry SDK exports to every SpanExporter bean. Unused
 * while the SDK is off (the default); {@link TracingTest} turns it on.
 */
@ApplicationScoped
public class InMemorySpans {
    @Produces
    @Singleton
    InMemorySpanExporter exporter() {
        return InMemorySpanExporter.create();
    }
}
