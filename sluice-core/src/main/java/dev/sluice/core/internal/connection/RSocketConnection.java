package dev.sluice.core.internal.connection;

import dev.sluice.core.Connection;
import dev.sluice.core.Lease;
import dev.sluice.core.Leases;
import dev.sluice.core.RSocket;
import dev.sluice.core.exceptions.ConnectionCloseException;
import dev.sluice.core.exceptions.ConnectionClosedException;
import dev.sluice.core.exceptions.ConnectionErrorException;
import dev.sluice.core.exceptions.RSocketErrorException;
import dev.sluice.core.internal.keepalive.KeepAlive;
import dev.sluice.core.internal.lease.ConnectionLeases;
import dev.sluice.core.internal.lease.LeaseWait;
import dev.sluice.core.internal.metrics.RequestMetering;
import dev.sluice.core.internal.stream.Errors;
import dev.sluice.core.transport.DuplexConnection;
import dev.sluice.core.transport.FrameHandler;
import dev.sluice.frame.ErrorCodes;
import dev.sluice.frame.FrameHeader;
import dev.sluice.frame.FrameReader;
import dev.sluice.frame.FrameType;
import dev.sluice.frame.KeepAliveFrame;
import dev.sluice.frame.LeaseFrame;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.concurrent.EventExecutor;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * One RSocket connection: its life (handshake, open, closing, closed), the requester API, and the rooms it is
 * made of — the {@link StreamRegistry} of its streams, {@link InboundFrames} for what arrives, {@link KeepAlive},
 * {@link ConnectionLeases} when leasing, {@link RequestMetering} when metrics are on, and the {@link FrameWriter}
 * batch for what leaves.
 *
 * <p><b>Threading.</b> Everything here runs on the transport's event loop; the public {@link Connection} methods
 * return publishers whose work hops onto it. No locks.
 *
 * <p><b>Buffers.</b> Inbound frames are borrowed from the transport; payloads handed to handlers and subscribers
 * are retained slices of them (zero copy). Outbound frames are encoded into the writer's batch.
 *
 * <p>Longer than the other rooms on purpose: the connection's life is one state variable (awaiting SETUP,
 * accepting, open, closing, closed), and every transition of it is kept here so that it can be read in one place;
 * the work each state does lives in the rooms.
 */
public final class RSocketConnection implements FrameHandler, KeepAlive.Peer, ConnectionLeases.Sender {

    static final Logger log = LoggerFactory.getLogger(RSocketConnection.class);

    private static final int AWAITING_SETUP = 0;
    private static final int ACCEPTING = 1;
    private static final int OPEN = 2;
    private static final int CLOSING = 3;
    private static final int CLOSED = 4;

    private final DuplexConnection transport;
    private final EventExecutor loop;
    private final FrameWriter writer;
    private final boolean client;
    private final ConnectionConfig config;
    private final StreamRegistry streams;
    private final InboundFrames inbound;
    private final ConnectionRequester requester = new ConnectionRequester(this);
    private final Sinks.Empty<Void> closed = Sinks.empty();
    private final Sinks.Many<Long> rtt = Sinks.many().multicast().directBestEffort();
    /** Server connections only. */
    private final ServerHandshake handshake;

    private volatile int state;
    private RSocket handler;
    /** Null when leasing was not negotiated on this connection. */
    private volatile ConnectionLeases leases;
    /** The responder's metrics once the connection is open; null without. Event loop only. */
    private RequestMetering metering;
    private KeepAlive keepAlive;
    /** Client: the server has shown it accepted our SETUP (see onFrame); servers never read it. */
    private boolean established;
    private boolean inReadBurst;
    /** Written on the event loop before {@code closed} completes, which publishes it to other threads. */
    private Throwable closeCause;
    /** The SETUP was refused: the transport lingers on close so that the peer reads the ERROR. Event loop only. */
    private boolean refused;

    private RSocketConnection(DuplexConnection transport, boolean client, ConnectionConfig config,
                              SetupHandler setupHandler) {
        this.transport = transport;
        this.loop = transport.executor();
        this.client = client;
        this.config = config;
        this.handshake = client ? null : new ServerHandshake(this, setupHandler, config.maxInboundPayloadSize());
        this.writer = new FrameWriter(transport, config.mtu());
        this.streams = new StreamRegistry(this, loop, writer, client);
        this.inbound = new InboundFrames(this, streams, config, client);
    }

    /**
     * A client connection: writes the given SETUP frame (already encoded, taken over) and starts serving at once,
     * as the protocol lets a client do. Must be called on the transport's event loop.
     */
    public static RSocketConnection client(DuplexConnection transport, ConnectionConfig config, ByteBuf setupFrame,
                                           Function<Connection, RSocket> handlerFactory) {
        return client(transport, config, setupFrame, handlerFactory, null, false, LeaseWait.DEFAULT);
    }

    /**
     * A client connection with leasing: the SETUP frame must carry the L flag; {@code leases} builds what this
     * client's responder leases to the server; a request without a lease permit waits for one as {@code wait}
     * says, or, when it says not to wait, fails locally (not sent) if {@code strict}.
     */
    public static RSocketConnection client(DuplexConnection transport, ConnectionConfig config, ByteBuf setupFrame,
                                           Function<Connection, RSocket> handlerFactory,
                                           BiFunction<Flux<Long>, Scheduler, Leases> leases, boolean strict,
                                           LeaseWait wait) {
        RSocketConnection c = new RSocketConnection(transport, true, config, null);
        c.state = OPEN;
        c.handler = handlerFactory.apply(c.requester);
        ByteBuf out = c.writer.begin(setupFrame.readableBytes());
        out.writeBytes(setupFrame);
        setupFrame.release();
        c.writer.end();
        c.startKeepAlive(config.keepAliveInterval(), config.keepAliveMaxLifetime());
        c.startMetering();
        if (leases != null) {
            c.leases = new ConnectionLeases(leases.apply(c.rtt(), c.scheduler()), config.nanoClock(), strict,
                wait.maxPendingRequests(), wait.maxWait().toNanos(), c, c.streams::execute, c.loop, c.metering);
        }
        transport.start(c);
        return c;
    }

    /**
     * A server connection: waits for SETUP (at most {@code timeToFirstFrame}) and passes it to {@code setup}.
     * Must be called on the transport's event loop.
     */
    public static RSocketConnection server(DuplexConnection transport, ConnectionConfig config,
                                           SetupHandler setup, Duration timeToFirstFrame) {
        RSocketConnection c = new RSocketConnection(transport, false, config, setup);
        c.state = AWAITING_SETUP;
        c.handshake.startDeadline(timeToFirstFrame);
        transport.start(c);
        return c;
    }

    // =========================================================================================================
    // Server handshake (see ServerSetup)

    void onSetup(ByteBuf buf, int off, int len) {
        handshake.onSetup(buf, off, len);
    }

    /** SETUP was valid; the acceptor runs now. Frames that arrive meanwhile are queued. */
    void beginAccepting() {
        handshake.cancelDeadline();
        state = ACCEPTING;
    }

    /** The acceptor accepted: serve with {@code responder}, keep-alive as the client asked, replay queued frames. */
    void completeSetup(RSocket responder, Duration keepAliveInterval, Duration maxLifetime,
                       Function<Scheduler, Leases> leaseFactory) {
        if (state != ACCEPTING) {
            return;
        }
        handler = responder;
        state = OPEN;
        startKeepAlive(keepAliveInterval, maxLifetime);
        startMetering();
        if (leaseFactory != null) {
            leases = new ConnectionLeases(leaseFactory.apply(scheduler()), config.nanoClock(), false,
                LeaseWait.DEFAULT.maxPendingRequests(), LeaseWait.DEFAULT.maxWait().toNanos(), this, streams::execute,
                loop, metering);
        }
        boolean burst = inReadBurst;
        inReadBurst = true;
        handshake.replayHeld();
        inReadBurst = burst;
        if (!inReadBurst) {
            streams.runDeferred();
            writer.flushNow();
        }
    }

    /** Refuses the connection with an ERROR on stream 0 and closes it, lingering so that the peer reads why. */
    void rejectSetup(int errorCode, String message) {
        handshake.cancelDeadline();
        refused = true;
        connectionError(errorCode, message);
    }

    /** Runs {@code task} on the event loop: now if already there, else queued. */
    void execute(Runnable task) {
        streams.execute(task);
    }

    boolean awaitingSetup() {
        return state == AWAITING_SETUP;
    }

    // =========================================================================================================
    // Inbound (FrameHandler)

    @Override
    public void onFrame(ByteBuf buf, int off, int len) {
        int s = state;
        if (s == CLOSED) {
            return;
        }
        if (!inReadBurst) {
            inReadBurst = true;
            writer.readBurstStarted();
        }
        writer.frameRead();
        if (s == ACCEPTING) {
            handshake.hold(buf, off, len);
            return;
        }
        if (!established && client && len >= FrameHeader.SIZE
            && (FrameHeader.streamId(buf, off) != 0 || FrameHeader.frameType(buf, off) == FrameType.LEASE)) {
            // The spec: a client takes its SETUP as accepted once it sees a response, a LEASE or a request.
            established = true;
        }
        inbound.frameLength = len;
        FrameReader.read(buf, off, len, inbound);
    }

    @Override
    public void onReadComplete() {
        inReadBurst = false;
        // The burst's answers go out first; then the requests it made start, batched and flushed here rather than
        // by a flush task (a task per read burst was a measurable share of a lightly loaded requester's time).
        writer.flushNow();
        if (streams.hasDeferred()) {
            writer.readBurstStarted();
            streams.runDeferred();
            writer.flushNow();
        }
    }

    /** Whether the frames of a read burst are being handled now. */
    boolean inReadBurst() {
        return inReadBurst;
    }

    @Override
    public void onWritabilityChanged(boolean writable) {
        streams.onWritabilityChanged(writable);
    }

    @Override
    public void onTransportError(String message) {
        connectionError(ErrorCodes.CONNECTION_ERROR, message);
    }

    @Override
    public void onClose(Throwable cause) {
        terminate(cause != null ? new ConnectionClosedException("connection lost: " + cause.getMessage(), cause)
            : new ConnectionClosedException("connection closed by peer"));
    }

    /** An ERROR frame on stream 0. */
    void onConnectionErrorFrame(int code, String message) {
        if (code == ErrorCodes.CONNECTION_CLOSE) {
            // The peer drains and goes: no new requests from us, in-flight streams finish.
            if (state == OPEN) {
                state = CLOSING;
                closeCause = new ConnectionCloseException(message);
                closeWhenDrained();
                // A stream that never finishes (say, waiting for demand) must not hold the connection forever.
                Duration drain = config.peerCloseDrain();
                loop.schedule(() -> terminate(new ConnectionClosedException("the peer closed gracefully and "
                    + streams.size() + " stream(s) did not finish within " + drain.toMillis() + " ms")),
                    drain.toNanos(), TimeUnit.NANOSECONDS);
            }
        } else {
            // The spec's "handling the unexpected": a server ignores the setup error codes, and so does a client
            // once the connection is established; anything else at stream 0 ends the connection.
            boolean setupCode = ErrorCodes.isConnectionLevel(code) && code != ErrorCodes.CONNECTION_ERROR;
            if (!setupCode || client && !established) {
                terminate(Errors.fromFrame(code, message));
            }
        }
    }

    // =========================================================================================================
    // Rooms

    RSocket handler() {
        return handler;
    }

    ConnectionLeases leases() {
        return leases;
    }

    /** The responder's metrics, or null. Event loop only. */
    RequestMetering metering() {
        return metering;
    }

    private void startMetering() {
        if (config.metrics() != null) {
            metering = new RequestMetering(config.metrics().get(), config.nanoClock());
        }
    }

    KeepAlive keepAlive() {
        return keepAlive;
    }

    EventExecutor loop() {
        return loop;
    }

    ByteBufAllocator alloc() {
        return transport.alloc();
    }

    boolean closing() {
        return state == CLOSING;
    }

    boolean transportWritable() {
        return transport.isWritable();
    }

    private void startKeepAlive(Duration interval, Duration maxLifetime) {
        keepAlive = new KeepAlive(loop, config.nanoClock(), interval, maxLifetime, this, rtt::tryEmitNext);
        keepAlive.start();
    }

    @Override
    public void writeKeepAlive(boolean respond, ByteBuf data) {
        if (state != CLOSED) {
            ByteBuf out = writer.begin(FrameHeader.SIZE + 8 + data.readableBytes());
            KeepAliveFrame.encode(out, respond, 0, data);
            writer.end();
        }
    }

    @Override
    public void keepAliveExpired(String message) {
        connectionError(ErrorCodes.CONNECTION_ERROR, message);
    }

    @Override
    public boolean sendLease(Lease lease) {
        if (state == CLOSED || state == CLOSING) {
            return false;
        }
        ByteBuf md = lease.metadata();
        ByteBuf out = writer.begin(FrameHeader.SIZE + 8 + (md == null ? 0 : md.readableBytes()));
        LeaseFrame.encode(out, lease.ttlMillis(), lease.allowedRequests(), md);
        writer.end();
        return true;
    }

    /** A Reactor scheduler over this connection's event loop. */
    private Scheduler scheduler() {
        return Schedulers.fromExecutorService(loop, "sluice-connection");
    }

    /**
     * Why a new local request, started by {@code start}, cannot start now, or null; with leasing, also takes the
     * request's lease permit, or returns {@link ConnectionLeases#WAITING} when the request waits for one (see
     * {@link ConnectionLeases#permit}).
     */
    Throwable refuseNewRequest(Runnable start) {
        Throwable closedNow = refuseWhenClosed();
        ConnectionLeases l = leases;
        if (closedNow != null || l == null) {
            return closedNow;
        }
        return l.permit(start);
    }

    /** Why nothing can be sent now (closed or closing), or null. */
    Throwable refuseWhenClosed() {
        int s = state;
        if (s == CLOSED) {
            // The cause's words go into the message: a request made just after the connection was lost (say, to a
            // TLS 1.3 server that refused our certificate) should tell why, as the requests in flight were told.
            return closeCause instanceof RSocketErrorException e ? e
                : new ConnectionClosedException(closeCause == null || closeCause.getMessage() == null
                    ? "connection is closed" : "connection is closed: " + closeCause.getMessage(), closeCause);
        }
        if (s == CLOSING) {
            return new ConnectionCloseException("connection is closing: no new requests");
        }
        return null;
    }

    // =========================================================================================================
    // Closing

    void connectionError(int code, String message) {
        if (state == CLOSED) {
            return;
        }
        log.debug("closing connection to {}: {}", transport.remoteAddress(), message);
        streams.writeError(0, code, message);
        terminate(code == ErrorCodes.CONNECTION_ERROR ? new ConnectionErrorException(message)
            : Errors.fromFrame(code, message));
    }

    /** The registry emptied: a closing connection may now go (after the current signal wrote its last frame). */
    void lastStreamRemoved() {
        if (state == CLOSING) {
            loop.execute(this::closeWhenDrained);
        }
    }

    private void closeWhenDrained() {
        if (state == CLOSING && streams.isEmpty()) {
            terminate(closeCause);
        }
    }

    private void terminate(Throwable cause) {
        if (state == CLOSED) {
            return;
        }
        state = CLOSED;
        closeCause = cause;
        if (handshake != null) {
            handshake.close();
        }
        if (keepAlive != null) {
            keepAlive.stop();
        }
        writer.flushNow();
        writer.close();
        if (refused) {
            transport.closeAfterRefusal();
        } else {
            transport.close();
        }
        streams.closeAll(cause);
        if (leases != null) {
            leases.close();
        }
        if (metering != null) {
            metering.close();
        }
        rtt.tryEmitComplete();
        closed.tryEmitEmpty();
    }

    // =========================================================================================================
    // What the requester API (ConnectionRequester) reads

    /** The requester view: what a client's connect returns, and a server's acceptor gets as sendingSocket. */
    public Connection requester() {
        return requester;
    }

    StreamRegistry streams() {
        return streams;
    }

    double availability() {
        int s = state;
        if (s != OPEN && s != ACCEPTING) {
            return 0.0;
        }
        ConnectionLeases l = leases;
        return l == null ? 1.0 : l.availability();
    }

    Flux<Long> rtt() {
        return rtt.asFlux();
    }

    /** Announces a graceful close (ERROR[CONNECTION_CLOSE]) and closes once drained, or after the timeout. */
    void closeGracefully(Duration drainTimeout) {
        streams.execute(() -> {
            if (state != OPEN && state != ACCEPTING) {
                return;
            }
            state = CLOSING;
            closeCause = new ConnectionCloseException("connection closed gracefully");
            streams.writeError(0, ErrorCodes.CONNECTION_CLOSE, "graceful close");
            if (streams.isEmpty()) {
                loop.execute(this::closeWhenDrained);
            } else {
                loop.schedule(() -> terminate(new ConnectionClosedException("drain timeout of "
                    + drainTimeout.toMillis() + " ms expired with " + streams.size() + " streams in flight")),
                    drainTimeout.toNanos(), TimeUnit.NANOSECONDS);
            }
        });
    }

    boolean isDraining() {
        return state == CLOSING;
    }

    SocketAddress remoteAddress() {
        return transport.remoteAddress();
    }

    Mono<Void> onClose() {
        return closed.asMono();
    }

    void dispose() {
        streams.execute(() -> terminate(new ConnectionClosedException("connection disposed")));
    }

    boolean isDisposed() {
        return state == CLOSED;
    }

    /** Why the connection closed; null while open. Published to other threads by {@link #onClose}. */
    Throwable closeCause() {
        return closeCause;
    }

    @Override
    public String toString() {
        return "RSocketConnection(" + (client ? "client" : "server") + ", " + transport.remoteAddress() + ")";
    }
}
