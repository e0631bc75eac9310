package dev.sluice.core;

import dev.sluice.core.exceptions.ConnectionClosedException;
import dev.sluice.core.internal.connection.ConnectionConfig;
import dev.sluice.core.internal.connection.RSocketConnection;
import dev.sluice.core.internal.connection.ServerSetup;
import dev.sluice.core.transport.DuplexConnection;
import dev.sluice.core.transport.ServerHandle;
import dev.sluice.core.transport.ServerTransport;
import dev.sluice.frame.ErrorCodes;
import dev.sluice.frame.ErrorFrame;
import io.netty.buffer.ByteBuf;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Serves RSocket connections: an acceptor that answers each SETUP with a handler, and the limits every connection
 * runs with. Reusable: each {@link #bind} starts an independent server.
 *
 * <pre>{@code
 * CloseableServer server = RSocketServer.create(SocketAcceptor.with(handler))
 *     .bind(TcpServerTransport.create("127.0.0.1", 7878))
 *     .block();
 * }</pre>
 *
 * <p>Not thread-safe while being configured.
 */
public final class RSocketServer {

    private static final Logger log = LoggerFactory.getLogger(RSocketServer.class);

    private SocketAcceptor acceptor = SocketAcceptor.with(new RSocket() { });
    private int mtu;
    private int maxInboundPayloadSize = Limits.DEFAULT_MAX_INBOUND_PAYLOAD_SIZE;
    private int maxActiveStreams = Limits.DEFAULT_MAX_ACTIVE_STREAMS;
    private Duration maxTimeToFirstFrame = Limits.DEFAULT_MAX_TIME_TO_FIRST_FRAME;
    private Duration peerCloseDrain = Limits.DEFAULT_PEER_CLOSE_DRAIN;
    private int maxConnections = Limits.DEFAULT_MAX_CONNECTIONS;
    private ServerLeaseConfigurer leases;
    private PayloadDecoder payloadDecoder = PayloadDecoder.ZERO_COPY;
    private Supplier<? extends ResponderMetrics> metrics;
    private SetupAuthenticator authenticator;

    private RSocketServer() {
    }

    public static RSocketServer create() {
        return new RSocketServer();
    }

    public static RSocketServer create(SocketAcceptor acceptor) {
        return new RSocketServer().acceptor(acceptor);
    }

    public RSocketServer acceptor(SocketAcceptor acceptor) {
        if (acceptor == null) {
            throw new IllegalArgumentException("acceptor must not be null");
        }
        this.acceptor = acceptor;
        return this;
    }

    /**
     * Requires every client to authenticate in its SETUP: {@code authenticator} checks the credentials of the
     * authentication extension before the acceptor runs, and the acceptor finds the client's identity in
     * {@link ConnectionSetupPayload#principal()}. A client without credentials, with malformed ones or with ones
     * the authenticator refuses gets ERROR[REJECTED_SETUP] ({@code missing credentials}, the precise malformation,
     * {@code authentication failed}), whose message never quotes a credential. Default: no authentication.
     */
    public RSocketServer authenticate(SetupAuthenticator authenticator) {
        if (authenticator == null) {
            throw new IllegalArgumentException("authenticator must not be null");
        }
        this.authenticator = authenticator;
        return this;
    }

    /** Fragments outbound frames larger than {@code mtu} bytes (length prefix included); 0 turns it off. */
    public RSocketServer fragment(int mtu) {
        this.mtu = Limits.checkMtu(mtu);
        return this;
    }

    /** Bound of a reassembled inbound payload, in bytes (default 16 MiB). */
    public RSocketServer maxInboundPayloadSize(int bytes) {
        this.maxInboundPayloadSize = Limits.checkPositive("maxInboundPayloadSize", bytes);
        return this;
    }

    /**
     * After the peer's CONNECTION_CLOSE, how long the requests in flight may take to finish before the connection
     * is closed anyway, failing what is left with {@link ConnectionClosedException} (default 30 s).
     */
    public RSocketServer peerCloseDrain(Duration timeout) {
        this.peerCloseDrain = Limits.checkPositive("peerCloseDrain", timeout);
        return this;
    }

    /** Bound of concurrently active streams per connection; requests beyond it get ERROR[REJECTED]. */
    public RSocketServer maxActiveStreams(int streams) {
        this.maxActiveStreams = Limits.checkPositive("maxActiveStreams", streams);
        return this;
    }

    /** How long a new connection may take to send SETUP (default 10 s). */
    public RSocketServer maxTimeToFirstFrame(Duration timeout) {
        this.maxTimeToFirstFrame = Limits.checkPositive("maxTimeToFirstFrame", timeout);
        return this;
    }

    /** Bound of open connections; the next one gets ERROR[REJECTED_SETUP] and is closed (default 10,000). */
    public RSocketServer maxConnections(int connections) {
        this.maxConnections = Limits.checkPositive("maxConnections", connections);
        return this;
    }

    /**
     * Turns leasing on: clients that set the L flag in SETUP get leases from {@code configurer} (called once per
     * such connection), and their requests beyond the lease are rejected before any handler runs
     * (ERROR[REJECTED] {@code lease_expired} / {@code lease_exhausted}). Without this, a SETUP with the L flag is
     * refused with ERROR[INVALID_SETUP] "lease is not supported", as rsocket-java does.
     */
    public RSocketServer lease(ServerLeaseConfigurer configurer) {
        if (configurer == null) {
            throw new IllegalArgumentException("lease configurer must not be null; use lease() to send none");
        }
        this.leases = configurer;
        return this;
    }

    /** Turns leasing on without sending any lease: a leasing client's requests are all rejected. */
    public RSocketServer lease() {
        return lease(scheduler -> Leases.none());
    }

    /**
     * Records what the responder of each of the server's connections does: requests by interaction and
     * outcome, refusals and their reasons, sampled latency, leases. {@code metrics} makes one
     * {@link ResponderMetrics} per connection when it opens; {@code sluice-micrometer} provides one for
     * Micrometer. Default: none.
     */
    public RSocketServer metrics(Supplier<? extends ResponderMetrics> metrics) {
        if (metrics == null) {
            throw new IllegalArgumentException("metrics must not be null");
        }
        this.metrics = metrics;
        return this;
    }

    /**
     * How the handlers of this server receive payloads, and how its acceptor's {@code sendingSocket} hands over
     * the client's responses: {@link PayloadDecoder#ZERO_COPY} (the default) or heap copies that need no release
     * ({@link PayloadDecoder#COPY}). The SETUP payload an acceptor sees is not copied: it is valid while the
     * acceptor runs, as always.
     */
    public RSocketServer payloadDecoder(PayloadDecoder decoder) {
        if (decoder == null) {
            throw new IllegalArgumentException("payloadDecoder must not be null");
        }
        this.payloadDecoder = decoder;
        return this;
    }

    /**
     * Starts listening and waits until it does: {@link #bind} then {@code block()}. For {@code main} methods and
     * tests; never call it on an event loop or inside a reactive chain.
     */
    public CloseableServer bindNow(ServerTransport transport) {
        return bind(transport).block();
    }

    /** Starts listening. */
    public Mono<CloseableServer> bind(ServerTransport transport) {
        // Keep-alive settings come from each client's SETUP; these two are placeholders the server never uses.
        ConnectionConfig config = new ConnectionConfig(mtu, maxInboundPayloadSize, maxActiveStreams,
            Duration.ofSeconds(20), Duration.ofSeconds(90), System::nanoTime, peerCloseDrain,
            metrics);
        ServerLeaseConfigurer configurer = leases;
        SocketAcceptor a = payloadDecoder == PayloadDecoder.COPY ? copying(acceptor) : acceptor;
        if (authenticator != null) {
            a = new AuthenticatingAcceptor(authenticator, a);
        }
        ServerSetup setup = new ServerSetup(a, configurer == null ? null : configurer::configure);
        Running running = new Running(maxConnections);
        return transport.start(dc -> running.accept(dc, config, setup, maxTimeToFirstFrame))
            .map(handle -> {
                running.handle = handle;
                return running;
            });
    }

    /** {@code acceptor} with {@link PayloadDecoder#COPY} applied to what its handler and requester receive. */
    private static SocketAcceptor copying(SocketAcceptor acceptor) {
        return (setup, sendingSocket) -> acceptor.accept(setup, new CopyingConnection(sendingSocket))
            .map(CopyingHandler::new);
    }

    private static final class Running implements CloseableServer {

        private final int maxConnections;
        private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
        private volatile ServerHandle handle;

        Running(int maxConnections) {
            this.maxConnections = maxConnections;
        }

        void accept(DuplexConnection dc, ConnectionConfig config, ServerSetup setup, Duration firstFrame) {
            if (connections.size() >= maxConnections) {
                log.warn("refusing connection from {}: maxConnections={} reached", dc.remoteAddress(),
                    maxConnections);
                String message = "too many connections: maxConnections=" + maxConnections + " reached";
                ByteBuf out = dc.alloc().buffer();
                if (dc.lengthPrefixed()) {
                    out.writeMedium(0);
                }
                ErrorFrame.encode(out, 0, ErrorCodes.REJECTED_SETUP, message);
                if (dc.lengthPrefixed()) {
                    out.setMedium(0, out.readableBytes() - 3);
                }
                dc.write(out);
                dc.flush();
                dc.closeAfterRefusal();
                return;
            }
            Connection c = RSocketConnection.server(dc, config, setup, firstFrame).requester();
            connections.add(c);
            c.onClose().subscribe(null, e -> connections.remove(c), () -> connections.remove(c));
        }

        @Override
        public SocketAddress address() {
            return handle.address();
        }

        @Override
        public int connectionCount() {
            return connections.size();
        }

        @Override
        public Mono<Void> closeGracefully(Duration drainTimeout) {
            handle.dispose();
            return Flux.fromIterable(connections).flatMap(c -> c.closeGracefully(drainTimeout)).then();
        }

        @Override
        public Mono<Void> onClose() {
            return handle.onClose();
        }

        @Override
        public void dispose() {
            handle.dispose();
            for (Connection c : connections) {
                c.dispose();
            }
        }

        @Override
        public boolean isDisposed() {
            return handle.isDisposed();
        }
    }
}
