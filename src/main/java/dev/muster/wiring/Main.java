package dev.muster.wiring;

import io.quarkus.runtime.ApplicationLifecycleManager;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;
import org.jboss.logmanager.handlers.AsyncHandler;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.logging.Handler;
import java.util.logging.Logger;

/**
 * The process's entry point: Quarkus's own, except that before the process exits its console lines are written out.
 *
 * <p>The console is asynchronous (application.properties): a background thread writes the lines, and a daemon
 * thread's queue is not written when the JVM exits. And when startup fails (a missing TLS certificate), Quarkus logs
 * the cause after it has stopped the application, logging included, so the process ended with status 1 and said
 * nothing. Here the exit first waits until the asynchronous handlers have written every line they hold (at most
 * {@value #DRAIN_MILLIS} ms), then prints a startup failure on stderr, whatever the logging configuration.
 */
@QuarkusMain
public final class Main {
    static final long DRAIN_MILLIS = 5_000;

    private Main() {
    }

    public static void main(String... args) {
        BiConsumer<Integer, Throwable> exit = ApplicationLifecycleManager.getDefaultExitCodeHandler();
        Quarkus.run(Service.class, (code, failure) -> {
            drainAsyncLogging(DRAIN_MILLIS);
            if (failure != null && code != 0 && !printedByQuarkus(failure)) {
                report(failure);
            }
            exit.accept(code, failure);
        }, args);
    }

    /**
     * Configuration errors Quarkus prints on stderr itself, synchronously; any other startup failure it only logs, and
     * by then the log handlers may be closed (a missing TLS certificate fails while the HTTP server starts, after which
     * the application is stopped, logging included), so it is printed here, on stderr, without logging.
     */
    static boolean printedByQuarkus(Throwable failure) {
        return failure instanceof io.quarkus.runtime.configuration.ConfigurationException
                || failure instanceof io.smallrye.config.ConfigValidationException
                || failure instanceof io.quarkus.runtime.PreventFurtherStepsException;
    }

    static void report(Throwable failure) {
        System.err.println("Muster failed to start: " + failure);
        failure.printStackTrace(System.err);
        System.err.flush();
    }

    /** Runs until the process is asked to stop, as Quarkus's generated main does. */
    public static final class Service implements QuarkusApplication {
        @Override
        public int run(String... args) {
            Quarkus.waitForExit();
            return 0;
        }
    }

    /**
     * Closes every asynchronous handler of the root logger (nested ones included) and waits, up to {@code millis},
     * until each has written out its queue: an {@link AsyncHandler} lets go of its handlers once its queue is empty
     * after closing. Then flushes what they wrote to. Only for the process's last moments: records logged after this
     * are not written by those handlers.
     */
    static void drainAsyncLogging(long millis) {
        List<AsyncHandler> async = new ArrayList<>();
        List<Handler> written = new ArrayList<>();
        collect(Logger.getLogger("").getHandlers(), async, written);
        for (AsyncHandler h : async) {
            h.close();
        }
        long deadline = System.nanoTime() + millis * 1_000_000;
        for (AsyncHandler h : async) {
            while (h.getHandlers().length > 0 && System.nanoTime() < deadline) {
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
        for (Handler h : written) {
            h.flush();
        }
        System.out.flush();
        System.err.flush();
    }

    private static void collect(Handler[] handlers, List<AsyncHandler> async, List<Handler> written) {
        for (Handler h : handlers) {
            if (h instanceof AsyncHandler a) {
                async.add(a);
            }
            written.add(h);
            if (h instanceof org.jboss.logmanager.ExtHandler e) {
                collect(e.getHandlers(), async, written);
            }
        }
    }
}
