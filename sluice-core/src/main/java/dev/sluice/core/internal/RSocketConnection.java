package dev.sluice.core.internal;

import dev.sluice.core.Connection;
import dev.sluice.core.Lease;
import dev.sluice.core.Leases;
import dev.sluice.core.Limits;
import dev.sluice.core.RequestType;
import dev.sluice.core.StatsRecorder;
import dev.sluice.core.exceptions.ConnectionCloseException;
import dev.sluice.core.exceptions.ConnectionClosedException;
import dev.sluice.core.exceptions.ConnectionErrorException;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.exceptions.RSocketErrorException;
import dev.sluice.core.exceptions.RejectedException;
import dev.sluice.core.transport.DuplexConnection;
import dev.sluice.core.transport.FrameHandler;
import dev.sluice.frame.CancelFrame;
import dev.sluice.frame.ErrorCodes;
import dev.sluice.frame.ErrorFrame;
import dev.sluice.frame.ExtFrame;
import dev.sluice.frame.FrameFlags;
import dev.sluice.frame.FrameHeader;
import dev.sluice.frame.FrameType;
import dev.sluice.frame.FrameValidator;
import dev.sluice.frame.KeepAliveFrame;
import dev.sluice.frame.LeaseFrame;
import dev.sluice.frame.MetadataPushFrame;
import dev.sluice.frame.PayloadFrame;
import dev.sluice.frame.PayloadSection;
import dev.sluice.frame.RequestChannelFrame;
import dev.sluice.frame.RequestNFrame;
import dev.sluice.frame.RequestStreamFrame;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.collection.IntObjectMap;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import reactor.core.Disposable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.publisher.SignalType;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The RSocket engine for one connection: decodes and dispatches inbound frames, keeps the stream registry, runs
 * the requester and responder of this side, keep-alive, the server's SETUP handshake and the close sequences.
 *
 * <p><b>Threading.</b> Everything here runs on the transport's event loop; the public {@link RSocket} methods
 * return publishers whose work hops onto it. No locks.
 *
 * <p><b>Buffers.</b> Inbound frames are borrowed from the transport; payloads handed to handlers and subscribers
 * are retained slices of them (zero copy). Outbound frames are encoded into {@link FrameWriter}'s batch.
 */
public final class RSocketConnection implements FrameHandler, Connection {

    private static final Logger log = LoggerFactory.getLogger(RSocketConnection.class);

    private static final int AWAITING_SETUP = 0;
    private static final int ACCEPTING = 1;
    private static final int OPEN = 2;
    private static final int CLOSING = 3;
    private static final int CLOSED = 4;

    private static final int MAX_STREAM_ID = Integer.MAX_VALUE;
    /** The smallest frame a non-final fragment may be: the minimum MTU less the 3-byte length prefix. */
    static final int MIN_FRAGMENT_LENGTH = Limits.MIN_MTU - 3;
    /** How long in-flight streams may drain after the peer announced a graceful close. */

    private final DuplexConnection transport;
    private final EventExecutor loop;
    private final ByteBufAllocator alloc;
    private final FrameWriter writer;
    private final boolean client;
    private final ConnectionConfig config;
    private final IntObjectHashMap<Stream> streams = new IntObjectHashMap<>();
    private final IntObjectHashMap<Reassembly> reassemblies = new IntObjectHashMap<>(4);
    private final Sinks.Empty<Void> closed = Sinks.empty();
    private final Sinks.Many<Long> rtt = Sinks.many().multicast().directBestEffort();
    private final SetupHandler setupHandler;

    private volatile int state;
    private int nextStreamId;
    private RSocket handler;
    // Leasing (null when not negotiated on this connection):
    private RequesterLeaseTracker requesterLease;
    private ResponderLeaseTracker responderLease;
    private StatsRecorder<Object> stats;
    private Disposable leaseSender;
    private boolean strictLease;
    /** Outbound demand waiting for the transport to become writable (event loop only). */
    private final ArrayDeque<Runnable> writableWaiters = new ArrayDeque<>(0);
    /** The transport's writability and the event loop, as outbound streams see them. */
    private final OutboundGate gate = new OutboundGate() {
        @Override
        public boolean writable() {
            return transport.isWritable();
        }

        @Override
        public void whenWritable(Runnable task) {
            if (state != CLOSED) {
                writableWaiters.add(task);
            }
        }

        @Override
        public void later(Runnable task) {
            loop.execute(task);
        }
    };
    /** Client: the server has shown it accepted our SETUP (see onFrame); servers never read it. */
    private boolean established;
    private boolean inReadBurst;
    private ArrayDeque<ByteBuf> queuedWhileAccepting;
    private int queuedBytes;
    private long lastKeepAliveNanos;
    private long maxLifetimeNanos;
    private ScheduledFuture<?> keepAliveTask;
    private ScheduledFuture<?> deadlineTask;
    /** Written on the event loop before {@code closed} completes, which publishes it to other threads. */
    private Throwable closeCause;

    private RSocketConnection(DuplexConnection transport, boolean client, ConnectionConfig config,
                              SetupHandler setupHandler) {
        this.transport = transport;
        this.loop = transport.executor();
        this.alloc = transport.alloc();
        this.client = client;
        this.config = config;
        this.setupHandler = setupHandler;
        this.writer = new FrameWriter(transport, config.mtu());
        this.nextStreamId = client ? 1 : 2;
    }

    /**
     * A client connection: writes the given SETUP frame (already encoded, taken over) and starts serving at once,
     * as the protocol lets a client do. Must be called on the transport's event loop.
     */
    public static RSocketConnection client(DuplexConnection transport, ConnectionConfig config, ByteBuf setupFrame,
                                           Function<Connection, RSocket> handlerFactory) {
        return client(transport, config, setupFrame, handlerFactory, null, false);
    }

    /**
     * A client connection with leasing: the SETUP frame must carry the L flag; {@code leases} builds what this
     * client's responder leases to the server; {@code strict} makes requests fail locally (not sent) without a
     * lease permit.
     */
    public static RSocketConnection client(DuplexConnection transport, ConnectionConfig config, ByteBuf setupFrame,
                                           Function<Connection, RSocket> handlerFactory,
                                           BiFunction<Flux<Long>, Scheduler, Leases> leases,
                                           boolean strict) {
        RSocketConnection c = new RSocketConnection(transport, true, config, null);
        c.state = OPEN;
        c.handler = handlerFactory.apply(c);
        ByteBuf out = c.writer.begin(setupFrame.readableBytes());
        out.writeBytes(setupFrame);
        setupFrame.release();
        c.writer.end();
        c.startKeepAlive(config.keepAliveInterval(), config.keepAliveMaxLifetime());
        if (leases != null) {
            c.strictLease = strict;
            c.startLeasing(leases.apply(c.rtt(), c.scheduler()));
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
        c.deadlineTask = c.loop.schedule(() -> {
            if (c.state == AWAITING_SETUP) {
                c.connectionError(ErrorCodes.INVALID_SETUP,
                    "no SETUP frame received within maxTimeToFirstFrame=" + timeToFirstFrame.toMillis() + " ms");
            }
        }, timeToFirstFrame.toNanos(), TimeUnit.NANOSECONDS);
        transport.start(c);
        return c;
    }

    // =========================================================================================================
    // Server handshake (called by the SetupHandler)

    /** SETUP was valid; the acceptor runs now. Frames that arrive meanwhile are queued. */
    void beginAccepting() {
        cancelDeadline();
        state = ACCEPTING;
    }

    /** The acceptor accepted: serve with {@code responder}, keep-alive as the client asked, replay queued frames. */
    void completeSetup(RSocket responder, Duration keepAliveInterval, Duration maxLifetime,
                       Function<Scheduler, Leases> leases) {
        if (state != ACCEPTING) {
            return;
        }
        handler = responder;
        state = OPEN;
        startKeepAlive(keepAliveInterval, maxLifetime);
        if (leases != null) {
            startLeasing(leases.apply(scheduler()));
        }
        ArrayDeque<ByteBuf> queued = queuedWhileAccepting;
        queuedWhileAccepting = null;
        if (queued != null) {
            boolean burst = inReadBurst;
            inReadBurst = true;
            for (ByteBuf f; (f = queued.poll()) != null; ) {
                try {
                    if (state != CLOSED) {
                        onFrame(f, f.readerIndex(), f.readableBytes());
                    }
                } finally {
                    f.release();
                }
            }
            inReadBurst = burst;
        }
        if (!inReadBurst) {
            writer.flushNow();
        }
    }

    /** Refuses the connection with an ERROR on stream 0 and closes it. */
    void rejectSetup(int errorCode, String message) {
        cancelDeadline();
        connectionError(errorCode, message);
    }

    /** The requester view handed to a server's acceptor as the {@code sendingSocket}. */
    public Connection requester() {
        return this;
    }

    // =========================================================================================================
    // Inbound

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
        String problem = FrameValidator.validate(buf, off, len);
        if (problem != null) {
            if (len >= FrameHeader.SIZE
                && (FrameValidator.ignorable(buf, off) || s != AWAITING_SETUP && ignoredOnItsStream(buf, off))) {
                return;
            }
            connectionError(s == AWAITING_SETUP ? ErrorCodes.INVALID_SETUP : ErrorCodes.CONNECTION_ERROR,
                "malformed frame: " + problem);
            return;
        }
        int type = FrameHeader.frameType(buf, off);
        if (s == AWAITING_SETUP) {
            onFirstFrame(type, buf, off, len);
            return;
        }
        if (s == ACCEPTING) {
            queue(buf, off, len);
            return;
        }
        int streamId = FrameHeader.streamId(buf, off);
        int flags = FrameHeader.flags(buf, off);
        if (!established && (streamId != 0 || type == FrameType.LEASE)) {
            // The spec: a client takes its SETUP as accepted once it sees a response, a LEASE or a request.
            established = true;
        }
        switch (type) {
            case FrameType.PAYLOAD -> onPayload(streamId, flags, buf, off, len);
            case FrameType.REQUEST_RESPONSE, FrameType.REQUEST_FNF, FrameType.REQUEST_STREAM,
                FrameType.REQUEST_CHANNEL -> onRequest(type, streamId, flags, buf, off, len);
            case FrameType.REQUEST_N -> {
                Stream st = streams.get(streamId);
                if (st != null) {
                    st.onRequestN(RequestNFrame.requestN(buf, off));
                }
            }
            case FrameType.CANCEL -> {
                dropReassembly(streamId);
                Stream st = streams.get(streamId);
                if (st != null) {
                    st.onCancel();
                }
            }
            case FrameType.ERROR -> onErrorFrame(streamId, buf, off, len);
            case FrameType.KEEPALIVE -> onKeepAlive(flags, buf, off, len);
            case FrameType.METADATA_PUSH -> onMetadataPush(streamId, buf, off, len);
            case FrameType.LEASE -> {
                if (requesterLease != null) {
                    requesterLease.onLease(config.nanoClock().getAsLong(), LeaseFrame.ttlMillis(buf, off),
                        LeaseFrame.numberOfRequests(buf, off));
                }
            }
            case FrameType.RESUME -> connectionError(ErrorCodes.CONNECTION_ERROR,
                "RESUME received on an established connection");
            // No extension is understood here, so an EXT frame is one "not understood": ignored when its I flag
            // allows it, a connection error otherwise (the spec's "Handling Ignore Flag").
            case FrameType.EXT -> {
                if ((flags & FrameFlags.IGNORE) == 0) {
                    connectionError(ErrorCodes.CONNECTION_ERROR, "EXT frame with extended type "
                        + ExtFrame.extendedType(buf, off) + " not understood and its I flag is clear");
                }
            }
            // A second SETUP, SETUP at a client and RESUME_OK are ignored, as the spec's "handling the
            // unexpected" says.
            default -> {
            }
        }
    }

    @Override
    public void onReadComplete() {
        inReadBurst = false;
        writer.flushNow();
    }

    @Override
    public void onWritabilityChanged(boolean writable) {
        // Outbound streams that stopped asking their publishers for more wait here (see OutboundDemand). Each
        // waiter either requests a batch or, if the buffer filled up again meanwhile, waits anew.
        for (int i = writableWaiters.size(); i > 0 && writable && transport.isWritable(); i--) {
            writableWaiters.poll().run();
        }
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

    /**
     * Whether a frame the validator refused for its stream id is one the spec says to ignore rather than fail the
     * connection on: CANCEL, PAYLOAD or REQUEST_N on stream 0 (a stream nobody has, so "an unknown stream") and
     * METADATA_PUSH on a non-zero stream.
     */
    private static boolean ignoredOnItsStream(ByteBuf buf, int off) {
        int type = FrameHeader.frameType(buf, off);
        if (FrameHeader.streamId(buf, off) == 0) {
            return type == FrameType.CANCEL || type == FrameType.PAYLOAD || type == FrameType.REQUEST_N;
        }
        return type == FrameType.METADATA_PUSH;
    }

    private void onFirstFrame(int type, ByteBuf buf, int off, int len) {
        if (type == FrameType.SETUP) {
            setupHandler.onSetup(this, buf, off, len);
        } else if (type == FrameType.RESUME) {
            rejectSetup(ErrorCodes.REJECTED_RESUME, "resume not supported");
        } else {
            rejectSetup(ErrorCodes.INVALID_SETUP, "SETUP or RESUME frame must be received before any others, got "
                + FrameType.name(type));
        }
    }

    private void queue(ByteBuf buf, int off, int len) {
        if (queuedWhileAccepting == null) {
            queuedWhileAccepting = new ArrayDeque<>();
        }
        queuedBytes += len;
        if (queuedBytes > config.maxInboundPayloadSize()) {
            connectionError(ErrorCodes.CONNECTION_ERROR, "more than " + config.maxInboundPayloadSize()
                + " bytes of frames arrived while the server was still accepting the connection");
            return;
        }
        queuedWhileAccepting.add(buf.retainedSlice(off, len));
    }

    private void onRequest(int type, int streamId, int flags, ByteBuf buf, int off, int len) {
        if ((streamId & 1) == (client ? 1 : 0)) {
            connectionError(ErrorCodes.CONNECTION_ERROR, FrameType.name(type) + " on stream " + streamId
                + ": requests from the " + (client ? "server must use even" : "client must use odd")
                + " stream ids");
            return;
        }
        if (streams.containsKey(streamId) || reassemblies.containsKey(streamId)) {
            return; // the spec: a request on a stream id in use is ignored
        }
        boolean fnf = type == FrameType.REQUEST_FNF;
        if (state == CLOSING) {
            if (!fnf) {
                writeError(streamId, ErrorCodes.REJECTED, "connection is closing");
            }
            return;
        }
        if (streams.size() + reassemblies.size() >= config.maxActiveStreams()) {
            if (!fnf) {
                writeError(streamId, ErrorCodes.REJECTED, "too many active streams: limit maxActiveStreams="
                    + config.maxActiveStreams() + " reached");
            }
            return;
        }
        long initialN = type == FrameType.REQUEST_STREAM ? RequestStreamFrame.initialRequestN(buf, off)
            : type == FrameType.REQUEST_CHANNEL ? RequestChannelFrame.initialRequestN(buf, off) : 0;
        int payloadStart = type == FrameType.REQUEST_STREAM || type == FrameType.REQUEST_CHANNEL
            ? FrameHeader.SIZE + 4 : FrameHeader.SIZE;
        ResponderObserver obs = ResponderObserver.NOOP;
        if (responderLease != null) {
            // One permit per request, taken when its first frame arrives: never per fragment.
            obs = leaseCheck(type, streamId, buf, off, len, payloadStart);
            if (obs == null) {
                return;
            }
        }
        if ((flags & FrameFlags.FOLLOWS) != 0) {
            Reassembly r = new Reassembly(type, initialN, flags, config.maxInboundPayloadSize(), obs);
            reassemblies.put(streamId, r);
            addFragment(streamId, r, buf, off, len, payloadStart);
            return;
        }
        Payload payload = Frames.payload(buf, off, len, payloadStart);
        startResponder(type, streamId, initialN, (flags & FrameFlags.COMPLETE) != 0, payload, obs);
    }

    /**
     * Applies the lease to an arriving request: reports it to the stats recorder, takes a permit or rejects it
     * (ERROR[REJECTED] lease_expired / lease_exhausted; fire-and-forget is dropped).
     *
     * @return the observer for the accepted request's response, or null when it was rejected
     */
    private ResponderObserver leaseCheck(int type, int streamId, ByteBuf buf, int off, int len, int payloadStart) {
        long now = config.nanoClock().getAsLong();
        RequestType requestType = RequestType.fromFrameType(type);
        Object call = null;
        if (stats != null) {
            int mdLen = PayloadSection.metadataLength(buf, off, len, payloadStart);
            ByteBuf md = mdLen <= 0 ? Unpooled.EMPTY_BUFFER
                : buf.slice(PayloadSection.metadataOffset(buf, off, payloadStart), mdLen);
            call = stats.onRequestStarted(requestType, md);
        }
        String rejection = responderLease.tryAcquire(now);
        if (rejection != null) {
            if (type != FrameType.REQUEST_FNF) {
                writeError(streamId, ErrorCodes.REJECTED, rejection);
            }
            if (stats != null) {
                stats.onResponseStarted(requestType, call, SignalType.ON_ERROR, 0, true);
                stats.onResponseTerminated(requestType, call, SignalType.ON_ERROR);
            }
            return null;
        }
        return stats == null ? ResponderObserver.NOOP
            : new StatsObserver(stats, requestType, call, now, config.nanoClock());
    }

    private void startResponder(int type, int streamId, long initialN, boolean requesterComplete,
                                Payload payload, ResponderObserver observer) {
        try {
            switch (type) {
                case FrameType.REQUEST_FNF -> {
                    // Nothing comes back: the response starts and ends with the handler's invocation.
                    observer.onFirstSignal(streamId, ResponderObserver.COMPLETE);
                    observer.onTerminated(streamId, ResponderObserver.COMPLETE);
                    handler.fireAndForget(payload).subscribe(Drain.INSTANCE);
                }
                case FrameType.REQUEST_RESPONSE -> {
                    Publisher<Payload> answer;
                    try {
                        answer = handler.requestResponse(payload);
                    } catch (Throwable t) {
                        answer = Mono.error(t);
                    }
                    if (answer == null) {
                        answer = Mono.error(new NullPointerException("the handler returned null"));
                    }
                    if (!ResponderRequestResponse.answerAtOnce(this, streamId, answer, observer)) {
                        ResponderRequestResponse r = new ResponderRequestResponse(this, streamId, observer);
                        streams.put(streamId, r);
                        subscribe(answer, r);
                    }
                }
                case FrameType.REQUEST_STREAM -> {
                    ResponderRequestStream r = new ResponderRequestStream(this, streamId, initialN, observer);
                    streams.put(streamId, r);
                    subscribe(handlerCall(() -> handler.requestStream(payload)), r);
                }
                default -> {
                    ResponderRequestChannel r = new ResponderRequestChannel(this, streamId, initialN, payload,
                        requesterComplete, observer);
                    streams.put(streamId, r);
                    subscribe(handlerCall(() -> handler.requestChannel(r.inbound)), r);
                }
            }
        } catch (Throwable t) {
            // Only fire-and-forget gets here (the others route handler failures to their stream).
            log.warn("fire-and-forget handler failed on stream {}", streamId, t);
        }
    }

    private static <T> Publisher<T> handlerCall(java.util.function.Supplier<Publisher<T>> call) {
        try {
            Publisher<T> p = call.get();
            return p != null ? p : Mono.error(new NullPointerException("the handler returned null"));
        } catch (Throwable t) {
            return Mono.error(t);
        }
    }

    private static void subscribe(Publisher<Payload> p, CoreSubscriber<Payload> s) {
        p.subscribe(s);
    }

    private void onPayload(int streamId, int flags, ByteBuf buf, int off, int len) {
        Reassembly r = reassemblies.isEmpty() ? null : reassemblies.get(streamId);
        if (r != null) {
            addFragment(streamId, r, buf, off, len, FrameHeader.SIZE);
            return;
        }
        Stream st = streams.get(streamId);
        if (st == null) {
            return; // unknown stream: ignored
        }
        if ((flags & FrameFlags.FOLLOWS) != 0 && (flags & FrameFlags.COMPLETE) == 0) {
            r = new Reassembly(FrameType.PAYLOAD, 0, flags, config.maxInboundPayloadSize(), ResponderObserver.NOOP);
            reassemblies.put(streamId, r);
            addFragment(streamId, r, buf, off, len, FrameHeader.SIZE);
            return;
        }
        if ((flags & FrameFlags.NEXT) != 0) {
            st.onNextFrame(Frames.payload(buf, off, len, FrameHeader.SIZE), (flags & FrameFlags.COMPLETE) != 0);
        } else {
            st.onCompleteFrame();
        }
    }

    /** Adds a fragment; when it is the last one, delivers the whole payload. */
    private void addFragment(int streamId, Reassembly r, ByteBuf buf, int off, int len, int payloadStart) {
        int flags = FrameHeader.flags(buf, off);
        int mdLen = PayloadSection.metadataLength(buf, off, len, payloadStart);
        int mdIndex = PayloadSection.metadataOffset(buf, off, payloadStart);
        int dataIndex = PayloadSection.dataOffset(buf, off, len, payloadStart);
        int dataLen = PayloadSection.dataLength(buf, off, len, payloadStart);
        // A PAYLOAD with both F and C ends the sequence: the spec says C overrides F.
        boolean last = (flags & FrameFlags.FOLLOWS) == 0 || (flags & FrameFlags.COMPLETE) != 0;
        if (!last && len < MIN_FRAGMENT_LENGTH) {
            // Senders fill every fragment but the last up to their MTU (at least 64 with the length prefix), so a
            // smaller one is a flood: each fragment costs a slice and a component, far more than its bytes.
            dropReassembly(streamId);
            connectionError(ErrorCodes.CONNECTION_ERROR, "fragment of " + len + " bytes on stream " + streamId
                + ": fragments other than the last must be at least " + MIN_FRAGMENT_LENGTH
                + " bytes (the minimum MTU of " + Limits.MIN_MTU + " less the length prefix)");
            return;
        }
        String problem = r.add(alloc, buf, mdIndex, mdLen, dataIndex, dataLen);
        if (problem != null) {
            dropReassembly(streamId);
            Stream st = streams.get(streamId);
            if (r.frameType != FrameType.PAYLOAD) {
                if (r.frameType != FrameType.REQUEST_FNF) {
                    writeError(streamId, ErrorCodes.REJECTED, problem);
                }
            } else if (st != null) {
                // An inbound payload of an active stream: end that stream, tell the peer, keep the connection.
                remove(streamId, st);
                if ((streamId & 1) == (client ? 1 : 0)) {
                    writeCancel(streamId);
                } else {
                    writeError(streamId, ErrorCodes.INVALID, problem);
                }
                st.onConnectionClosed(new RejectedException(problem));
            }
            return;
        }
        if (!last) {
            return;
        }
        reassemblies.remove(streamId);
        ByteBuf md = r.takeMetadata();
        ByteBuf data = r.takeData();
        boolean hadMetadata = md != null || (r.firstFlags & FrameFlags.METADATA) != 0;
        Payload payload = Payload.create(data, md != null ? md : hadMetadata ? Unpooled.EMPTY_BUFFER
            : null);
        boolean complete = (flags & FrameFlags.COMPLETE) != 0;
        if (r.frameType == FrameType.PAYLOAD) {
            Stream st = streams.get(streamId);
            if (st == null) {
                payload.release();
            } else {
                st.onNextFrame(payload, complete);
            }
        } else {
            startResponder(r.frameType, streamId, r.initialRequestN,
                complete || (r.firstFlags & FrameFlags.COMPLETE) != 0, payload, r.observer);
        }
    }

    private void dropReassembly(int streamId) {
        if (!reassemblies.isEmpty()) {
            Reassembly r = reassemblies.remove(streamId);
            if (r != null) {
                r.abandon(streamId);
            }
        }
    }

    private void onErrorFrame(int streamId, ByteBuf buf, int off, int len) {
        int code = ErrorFrame.errorCode(buf, off);
        String message = ErrorFrame.message(buf, off, len);
        if (streamId != 0) {
            dropReassembly(streamId);
            Stream st = streams.get(streamId);
            if (st != null) {
                st.onErrorFrame(Errors.fromFrame(code, message));
            }
            return;
        }
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

    private void onKeepAlive(int flags, ByteBuf buf, int off, int len) {
        long now = System.nanoTime();
        lastKeepAliveNanos = now;
        int dataIndex = KeepAliveFrame.dataOffset(buf, off);
        int dataLen = KeepAliveFrame.dataLength(buf, off, len);
        if ((flags & FrameFlags.RESPOND) != 0) {
            ByteBuf data = buf.slice(dataIndex, dataLen);
            ByteBuf out = writer.begin(FrameHeader.SIZE + 8 + dataLen);
            KeepAliveFrame.encode(out, false, 0, data);
            writer.end();
        } else if (dataLen == Long.BYTES) {
            long sample = now - buf.getLong(dataIndex);
            if (sample >= 0 && sample <= 2 * maxLifetimeNanos) {
                rtt.tryEmitNext(sample);
            }
        }
    }

    private void onMetadataPush(int streamId, ByteBuf buf, int off, int len) {
        if (streamId != 0) {
            return; // spec: METADATA_PUSH on a non-zero stream is ignored
        }
        int mdIndex = MetadataPushFrame.metadataOffset(buf, off);
        int mdLen = MetadataPushFrame.metadataLength(buf, off, len);
        Payload p = Payload.create(null, mdLen == 0 ? Unpooled.EMPTY_BUFFER
            : buf.retainedSlice(mdIndex, mdLen));
        try {
            handler.metadataPush(p).subscribe(Drain.INSTANCE);
        } catch (Throwable t) {
            log.warn("metadata-push handler failed", t);
        }
    }

    // =========================================================================================================
    // Keep-alive

    private void startKeepAlive(Duration interval, Duration maxLifetime) {
        maxLifetimeNanos = maxLifetime.toNanos();
        lastKeepAliveNanos = System.nanoTime();
        long every = interval.toNanos();
        keepAliveTask = loop.scheduleAtFixedRate(this::keepAliveTick, every, every, TimeUnit.NANOSECONDS);
    }

    private void keepAliveTick() {
        if (state == CLOSED) {
            return;
        }
        long now = System.nanoTime();
        if (now - lastKeepAliveNanos > maxLifetimeNanos) {
            connectionError(ErrorCodes.CONNECTION_ERROR, "no KEEPALIVE received for "
                + TimeUnit.NANOSECONDS.toMillis(now - lastKeepAliveNanos) + " ms: keep-alive max lifetime "
                + TimeUnit.NANOSECONDS.toMillis(maxLifetimeNanos) + " ms exceeded");
            return;
        }
        ByteBuf stamp = Unpooled.buffer(Long.BYTES).writeLong(now);
        ByteBuf out = writer.begin(FrameHeader.SIZE + 8 + Long.BYTES);
        KeepAliveFrame.encode(out, true, 0, stamp);
        writer.end();
        stamp.release();
    }

    // =========================================================================================================
    // Used by the streams (event loop)

    boolean inEventLoop() {
        return loop.inEventLoop();
    }

    /** Runs {@code task} on the event loop: now if already there, else queued. */
    void execute(Runnable task) {
        if (loop.inEventLoop()) {
            task.run();
        } else {
            loop.execute(task);
        }
    }

    FrameWriter writer() {
        return writer;
    }

    /** What outbound streams pace their publishers with. */
    OutboundGate gate() {
        return gate;
    }

    /**
     * Why a new local request cannot start now, or null; with leasing, also takes the request's lease permit
     * (a request without one is still sent unless strict, for the responder to decide).
     */
    Throwable refuseNewRequest() {
        Throwable closed = refuseWhenClosed();
        if (closed != null || requesterLease == null) {
            return closed;
        }
        String noPermit = requesterLease.use(config.nanoClock().getAsLong());
        return noPermit != null && strictLease ? new RejectedException(noPermit + " (strict requester lease: not"
            + " sent)") : null;
    }

    /** Why nothing can be sent now (closed or closing), or null. */
    Throwable refuseWhenClosed() {
        int s = state;
        if (s == CLOSED) {
            return closeCause instanceof RSocketErrorException e ? e
                : new ConnectionClosedException("connection is closed", closeCause);
        }
        if (s == CLOSING) {
            return new ConnectionCloseException("connection is closing: no new requests");
        }
        return null;
    }

    /** Allocates a stream id for a request of this side, or -1 when none is left. */
    int allocateStreamId() {
        int id = nextStreamId;
        if (id <= 0 || id > MAX_STREAM_ID) {
            return -1;
        }
        nextStreamId = id + 2;
        return id;
    }

    /** Registers {@code s} under a fresh stream id; -1 when ids are exhausted. */
    int register(Stream s) {
        int id = allocateStreamId();
        if (id > 0) {
            streams.put(id, s);
        }
        return id;
    }

    RSocketErrorException streamIdsExhausted() {
        return new RejectedException("stream ids exhausted on this connection (2^31-1 requests); open a new one");
    }

    /** Removes {@code s} if it is still the stream registered under {@code id}. */
    boolean remove(int id, Stream s) {
        if (streams.get(id) != s) {
            return false;
        }
        streams.remove(id);
        dropReassembly(id);
        if (state == CLOSING && streams.isEmpty()) {
            // Let the current signal write its last frame first.
            loop.execute(this::closeWhenDrained);
        }
        return true;
    }

    void writeCancel(int streamId) {
        if (state == CLOSED) {
            return;
        }
        ByteBuf out = writer.begin(FrameHeader.SIZE);
        CancelFrame.encode(out, streamId);
        writer.end();
    }

    void writeRequestN(int streamId, long n) {
        if (state == CLOSED) {
            return;
        }
        ByteBuf out = writer.begin(FrameHeader.SIZE + 4);
        RequestNFrame.encode(out, streamId, n);
        writer.end();
    }

    void writePayloadComplete(int streamId) {
        if (state == CLOSED) {
            return;
        }
        ByteBuf out = writer.begin(FrameHeader.SIZE);
        PayloadFrame.encode(out, streamId, false, true, false, null, null);
        writer.end();
    }

    void writeError(int streamId, int code, String message) {
        if (state == CLOSED) {
            return;
        }
        ByteBuf out = writer.begin(FrameHeader.SIZE + 4 + message.length() * 3);
        ErrorFrame.encode(out, streamId, code, message);
        writer.end();
    }

    ByteBufAllocator alloc() {
        return alloc;
    }

    /** A Reactor scheduler over this connection's event loop. */
    private Scheduler scheduler() {
        return Schedulers.fromExecutorService(loop, "sluice-connection");
    }

    /** Turns leasing on for both directions of this connection and starts sending this side's leases. */
    @SuppressWarnings("unchecked")
    private void startLeasing(Leases leases) {
        requesterLease = new RequesterLeaseTracker();
        responderLease = new ResponderLeaseTracker();
        stats = (StatsRecorder<Object>) leases.stats();
        leaseSender = leases.leases().subscribe(
            lease -> execute(() -> sendLease(lease)),
            e -> log.warn("lease sender of {} failed; no more leases will be sent", this, e));
    }

    private void sendLease(Lease lease) {
        if (state == CLOSED || state == CLOSING) {
            return;
        }
        ByteBuf md = lease.metadata();
        ByteBuf out = writer.begin(FrameHeader.SIZE + 8 + (md == null ? 0 : md.readableBytes()));
        LeaseFrame.encode(out, lease.ttlMillis(), lease.allowedRequests(), md);
        writer.end();
        responderLease.onLeaseSent(config.nanoClock().getAsLong(), lease.ttlMillis(), lease.allowedRequests());
    }

    // =========================================================================================================
    // Closing

    private void connectionError(int code, String message) {
        if (state == CLOSED) {
            return;
        }
        log.debug("closing connection to {}: {}", transport.remoteAddress(), message);
        writeError(0, code, message);
        terminate(code == ErrorCodes.CONNECTION_ERROR ? new ConnectionErrorException(message)
            : Errors.fromFrame(code, message));
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
        cancelDeadline();
        if (keepAliveTask != null) {
            keepAliveTask.cancel(false);
        }
        if (leaseSender != null) {
            leaseSender.dispose();
        }
        writer.flushNow();
        writer.close();
        transport.close();
        if (!streams.isEmpty()) {
            List<Stream> open = new ArrayList<>(streams.values());
            streams.clear();
            for (Stream st : open) {
                try {
                    st.onConnectionClosed(cause);
                } catch (Throwable t) {
                    log.warn("stream failed while closing", t);
                }
            }
        }
        if (!reassemblies.isEmpty()) {
            for (IntObjectMap.PrimitiveEntry<Reassembly> e : reassemblies.entries()) {
                e.value().abandon(e.key());
            }
            reassemblies.clear();
        }
        writableWaiters.clear();
        if (queuedWhileAccepting != null) {
            for (ByteBuf f; (f = queuedWhileAccepting.poll()) != null; ) {
                f.release();
            }
        }
        if (stats != null) {
            try {
                stats.onConnectionClosed();
            } catch (Throwable t) {
                log.warn("stats recorder failed on close", t);
            }
        }
        rtt.tryEmitComplete();
        closed.tryEmitEmpty();
    }

    private void cancelDeadline() {
        if (deadlineTask != null) {
            deadlineTask.cancel(false);
            deadlineTask = null;
        }
    }

    @Override
    public Throwable closeCause() {
        return closeCause;
    }

    // =========================================================================================================
    // Connection (the requester API)

    @Override
    public Mono<Void> fireAndForget(Payload payload) {
        return new RequesterFireAndForget(this, payload, false);
    }

    @Override
    public Mono<Payload> requestResponse(Payload payload) {
        return new RequesterRequestResponse(this, payload);
    }

    @Override
    public Flux<Payload> requestStream(Payload payload) {
        return new RequesterRequestStream(this, payload);
    }

    @Override
    public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
        return new RequesterRequestChannel(this, payloads);
    }

    @Override
    public Mono<Void> metadataPush(Payload payload) {
        return new RequesterFireAndForget(this, payload, true);
    }

    @Override
    public double availability() {
        int s = state;
        if (s != OPEN && s != ACCEPTING) {
            return 0.0;
        }
        RequesterLeaseTracker lease = requesterLease;
        return lease == null ? 1.0 : lease.availability(config.nanoClock().getAsLong());
    }

    @Override
    public Flux<Long> rtt() {
        return rtt.asFlux();
    }

    @Override
    public Mono<Void> closeGracefully(Duration drainTimeout) {
        execute(() -> {
            if (state != OPEN && state != ACCEPTING) {
                return;
            }
            state = CLOSING;
            closeCause = new ConnectionCloseException("connection closed gracefully");
            writeError(0, ErrorCodes.CONNECTION_CLOSE, "graceful close");
            if (streams.isEmpty()) {
                loop.execute(this::closeWhenDrained);
            } else {
                loop.schedule(() -> terminate(new ConnectionClosedException("drain timeout of "
                    + drainTimeout.toMillis() + " ms expired with " + streams.size() + " streams in flight")),
                    drainTimeout.toNanos(), TimeUnit.NANOSECONDS);
            }
        });
        return onClose();
    }

    @Override
    public boolean isDraining() {
        return state == CLOSING;
    }

    @Override
    public SocketAddress remoteAddress() {
        return transport.remoteAddress();
    }

    @Override
    public Mono<Void> onClose() {
        return closed.asMono();
    }

    @Override
    public void dispose() {
        execute(() -> terminate(new ConnectionClosedException("connection disposed")));
    }

    @Override
    public boolean isDisposed() {
        return state == CLOSED;
    }

    @Override
    public String toString() {
        return "RSocketConnection(" + (client ? "client" : "server") + ", " + transport.remoteAddress() + ")";
    }

    /** Subscribes to fire-and-forget and metadata-push results: requests everything, logs failures. */
    private static final class Drain implements CoreSubscriber<Void> {
        static final Drain INSTANCE = new Drain();

        @Override
        public void onSubscribe(Subscription s) {
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(Void v) {
        }

        @Override
        public void onError(Throwable t) {
            log.debug("fire-and-forget or metadata-push handler failed", t);
        }

        @Override
        public void onComplete() {
        }
    }
}
