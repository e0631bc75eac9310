package dev.sluice.core.internal.stream;

/**
 * What an {@link OutboundDemand} needs from its connection: whether the transport takes more bytes now, a way to
 * wait until it does, and a way to continue later on the event loop. Event-loop confined.
 */
public interface OutboundGate {

    /** Whether the transport's outbound buffer is below its high-water mark. */
    boolean writable();

    /** Runs {@code task} on the event loop once the transport is writable again; never if the connection closes. */
    void whenWritable(Runnable task);

    /** Runs {@code task} on the event loop after the tasks queued there now (never inline). */
    void later(Runnable task);
}
