package dev.sluice.cli.server;

import dev.sluice.core.RequestType;
import dev.sluice.core.StatsRecorder;
import io.netty.buffer.ByteBuf;
import reactor.core.publisher.SignalType;

/**
 * Hands the engine's reports on one connection's requests to the server's log counters and to a lease sender's own
 * recorder alike (an adaptive sender's limit, a shared lease's use count), each with its own call context.
 */
final class LoggedRecorder implements StatsRecorder<RequestType> {

    private final ServerStats log;
    private final StatsRecorder<Object> sender;

    LoggedRecorder(ServerStats log, StatsRecorder<Object> sender) {
        this.log = log;
        this.sender = sender;
    }

    @Override
    public RequestType onRequestStarted(RequestType type, ByteBuf metadata) {
        sender.onRequestStarted(type, metadata);
        return log.onRequestStarted(type, metadata);
    }

    @Override
    public void onResponseStarted(RequestType type, RequestType call, SignalType firstSignal, long latencyNanos,
                                  boolean rejected) {
        sender.onResponseStarted(type, null, firstSignal, latencyNanos, rejected);
        log.onResponseStarted(type, call, firstSignal, latencyNanos, rejected);
    }

    @Override
    public void onResponseTerminated(RequestType type, RequestType call, SignalType lastSignal) {
        sender.onResponseTerminated(type, null, lastSignal);
        log.onResponseTerminated(type, call, lastSignal);
    }

    @Override
    public void onConnectionClosed() {
        sender.onConnectionClosed();
        log.onConnectionClosed();
    }
}
