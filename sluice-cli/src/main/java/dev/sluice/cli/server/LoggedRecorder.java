package dev.sluice.cli.server;

import dev.sluice.core.RequestType;
import dev.sluice.core.StatsRecorder;
import io.netty.buffer.ByteBuf;
import reactor.core.publisher.SignalType;

/**
 * Hands the engine's reports on one connection's requests to the server's log counters and to a lease sender's own
 * recorder alike (an adaptive sender's limit, a shared lease's use count). The engine keeps the sender's call
 * context; the log's is the request type, which it can rebuild from the callback's own argument.
 */
final class LoggedRecorder implements StatsRecorder<Object> {

    private final ServerStats log;
    private final StatsRecorder<Object> sender;

    LoggedRecorder(ServerStats log, StatsRecorder<Object> sender) {
        this.log = log;
        this.sender = sender;
    }

    @Override
    public Object onRequestStarted(RequestType type, ByteBuf metadata) {
        log.onRequestStarted(type, metadata);
        return sender.onRequestStarted(type, metadata);
    }

    @Override
    public void onResponseStarted(RequestType type, Object call, SignalType firstSignal, long latencyNanos,
                                  boolean rejected) {
        sender.onResponseStarted(type, call, firstSignal, latencyNanos, rejected);
        log.onResponseStarted(type, type, firstSignal, latencyNanos, rejected);
    }

    @Override
    public void onResponseTerminated(RequestType type, Object call, SignalType lastSignal) {
        sender.onResponseTerminated(type, call, lastSignal);
        log.onResponseTerminated(type, type, lastSignal);
    }

    @Override
    public void onConnectionClosed() {
        sender.onConnectionClosed();
        log.onConnectionClosed();
    }
}
