package dev.muster.wiring;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** The messages logged in one category while it is open (try-with-resources removes it). */
final class LogCapture extends Handler implements AutoCloseable {
    private final Logger category;
    private final List<String> messages = new CopyOnWriteArrayList<>();

    private LogCapture(Logger category) {
        this.category = category;
    }

    static LogCapture of(String category) {
        LogCapture c = new LogCapture(Logger.getLogger(category));
        c.category.addHandler(c);
        return c;
    }

    /** The messages so far, in the order they were logged (a live view). */
    List<String> messages() {
        return messages;
    }

    @Override
    public void publish(LogRecord r) {
        messages.add(r.getMessage());
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        category.removeHandler(this);
    }
}
