package dev.sluice.core;

import dev.sluice.core.exceptions.ConnectionClosedException;
import dev.sluice.core.internal.connection.ConnectionConfig;
import dev.sluice.core.internal.connection.RSocketConnection;
import dev.sluice.core.internal.lease.LeaseWait;
import dev.sluice.core.transport.ClientTransport;
import dev.sluice.core.transport.DuplexConnection;
import dev.sluice.frame.SetupFrame;
import dev.sluice.frame.metadata.AuthMetadata;
import dev.sluice.frame.metadata.CompositeMetadata;
import dev.sluice.frame.metadata.WellKnownMimeType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.time.Duration;
import java.util.function.Function;
import java.util.function.Supplier;
import reactor.core.publisher.Mono;

/**
 * Opens client connections: SETUP parameters, the client's own responder, and the limits. A connector is a
 * reusable, immutable-after-configuration template; each {@link #connect} opens a new connection.
 *
 * <pre>{@code
 * Connection c = RSocketConnector.create()
 *     .keepAlive(Duration.ofSeconds(20), Duration.ofSeconds(90))
 *     .connect(TcpClientTransport.create("127.0.0.1", 7878))
 *     .block();
 * }</pre>
 *
 * <p>Not thread-safe while being configured.
 */
public final class RSocketConnector {

    private static final String COMPOSITE = WellKnownMimeType.MESSAGE_RSOCKET_COMPOSITE_METADATA.string();
    private static final String AUTHENTICATION = WellKnownMimeType.MESSAGE_RSOCKET_AUTHENTICATION.string();

    private String metadataMimeType = "application/binary";
    private boolean metadataMimeTypeSet;
    private Credentials credentials;
    private String dataMimeType = "application/binary";
    private Duration keepAliveInterval = Duration.ofSeconds(20);
    private Duration keepAliveMaxLifetime = Duration.ofSeconds(90);
    private byte[] setupData;
    private byte[] setupMetadata;
    private Function<Connection, RSocket> responder = c -> new RSocket() { };
    private int mtu;
    private int maxInboundPayloadSize = Limits.DEFAULT_MAX_INBOUND_PAYLOAD_SIZE;
    private int maxActiveStreams = Limits.DEFAULT_MAX_ACTIVE_STREAMS;
    private Duration peerCloseDrain = Limits.DEFAULT_PEER_CLOSE_DRAIN;
    private ClientLeaseConfigurer leases;
    private boolean strictLease;
    private LeaseWait leaseWait = LeaseWait.DEFAULT;
    private PayloadDecoder payloadDecoder = PayloadDecoder.ZERO_COPY;
    private Supplier<? extends ResponderMetrics> metrics;

    private RSocketConnector() {
    }

    public static RSocketConnector create() {
        return new RSocketConnector();
    }

    /** Connects with every setting at its default: {@code create().connect(transport)}. */
    public static Mono<Connection> connectWith(ClientTransport transport) {
        return create().connect(transport);
    }

    /** The payload of the SETUP frame; copied, and released here. */
    public RSocketConnector setupPayload(Payload payload) {
        try {
            setupData = ByteBufUtil.getBytes(payload.data());
            setupMetadata = payload.hasMetadata() ? ByteBufUtil.getBytes(payload.metadata()) : null;
        } finally {
            payload.release();
        }
        return this;
    }

    public RSocketConnector metadataMimeType(String mimeType) {
        this.metadataMimeType = checkMime("metadataMimeType", mimeType);
        this.metadataMimeTypeSet = true;
        return this;
    }

    /**
     * Sends {@code credentials} in SETUP, in the authentication extension's layout, for the server's
     * {@link SetupAuthenticator} (or rsocket-java's and Spring Security's readers) to check.
     *
     * <p>They go as the first entry of composite metadata, before the entries of {@link #setupPayload}'s metadata
     * (which must then be composite metadata too). Unless {@link #metadataMimeType} was set, it becomes
     * {@code message/x.rsocket.composite-metadata.v0}; set to {@code message/x.rsocket.authentication.v0}, the
     * credentials are the whole SETUP metadata. Any other metadata MIME type fails {@link #connect}, since a server
     * would not look for credentials there. Simple and bearer credentials are cleartext on the wire: use TLS or a
     * Unix domain socket.
     */
    public RSocketConnector authentication(Credentials credentials) {
        if (credentials == null) {
            throw new IllegalArgumentException("credentials must not be null");
        }
        this.credentials = credentials;
        return this;
    }

    public RSocketConnector dataMimeType(String mimeType) {
        this.dataMimeType = checkMime("dataMimeType", mimeType);
        return this;
    }

    /** How often to send KEEPALIVE, and how long to tolerate silence before closing (defaults 20 s, 90 s). */
    public RSocketConnector keepAlive(Duration interval, Duration maxLifetime) {
        Limits.checkPositive("keep-alive interval", interval);
        Limits.checkPositive("keep-alive max lifetime", maxLifetime);
        if (interval.toMillis() > Integer.MAX_VALUE || maxLifetime.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("keep-alive durations must fit 2^31-1 ms, got " + interval + ", "
                + maxLifetime);
        }
        this.keepAliveInterval = interval;
        this.keepAliveMaxLifetime = maxLifetime;
        return this;
    }

    /** The handler for requests the server sends to this client; given the connection's requester. */
    public RSocketConnector responder(Function<Connection, RSocket> responder) {
        this.responder = responder;
        return this;
    }

    /** Fragments outbound frames larger than {@code mtu} bytes (length prefix included); 0 turns it off. */
    public RSocketConnector fragment(int mtu) {
        this.mtu = Limits.checkMtu(mtu);
        return this;
    }

    /** Bound of a reassembled inbound payload, in bytes (default 16 MiB). */
    public RSocketConnector maxInboundPayloadSize(int bytes) {
        this.maxInboundPayloadSize = Limits.checkPositive("maxInboundPayloadSize", bytes);
        return this;
    }

    /**
     * After the peer's CONNECTION_CLOSE, how long the requests in flight may take to finish before the connection
     * is closed anyway, failing what is left with {@link ConnectionClosedException} (default 30 s).
     */
    public RSocketConnector peerCloseDrain(Duration timeout) {
        this.peerCloseDrain = Limits.checkPositive("peerCloseDrain", timeout);
        return this;
    }

    /** Bound of concurrently active streams the server may open towards this client. */
    public RSocketConnector maxActiveStreams(int streams) {
        this.maxActiveStreams = Limits.checkPositive("maxActiveStreams", streams);
        return this;
    }

    /**
     * Asks the server for leases (the L flag in SETUP). {@link Connection#availability()} then reports what is
     * left of the last lease received; {@code configurer} builds the leases this client grants to requests the
     * server sends it. A request that finds no lease permit (none received yet, or the last one used up or
     * expired) waits for the next lease, as {@link #leaseWait} bounds it.
     */
    public RSocketConnector lease(ClientLeaseConfigurer configurer) {
        if (configurer == null) {
            throw new IllegalArgumentException("lease configurer must not be null; use lease() to send none");
        }
        this.leases = configurer;
        return this;
    }

    /** Asks the server for leases; this client leases nothing to the server's requests. */
    public RSocketConnector lease() {
        return lease((rtt, scheduler) -> Leases.none());
    }

    /**
     * With leasing and {@code leaseWait(0, ...)}: fail a request locally (never sent) when no lease permit is left,
     * instead of sending it for the server to refuse. Off by default.
     */
    public RSocketConnector strictLease(boolean strict) {
        this.strictLease = strict;
        return this;
    }

    /**
     * With leasing: how a request without a lease permit waits for one. At most {@code maxPendingRequests} wait at
     * once, in order, each for at most {@code maxWait}; beyond either bound a request fails here, never sent, with
     * a {@link dev.sluice.core.exceptions.RejectedException} whose message starts with {@code lease_exhausted}.
     * A cancelled request is never sent and takes no permit; its place in the count is freed when its turn comes at
     * a lease, or when its wait would have ended. {@code maxPendingRequests} 0: no request waits; one without a
     * permit is sent for the server to refuse (or fails at once with {@link #strictLease}). Default: 256 requests,
     * 1 s.
     */
    public RSocketConnector leaseWait(int maxPendingRequests, Duration maxWait) {
        if (maxPendingRequests < 0) {
            throw new IllegalArgumentException("maxPendingRequests must be >= 0, got " + maxPendingRequests);
        }
        if (maxPendingRequests > 0 && (maxWait == null || maxWait.isNegative() || maxWait.isZero())) {
            throw new IllegalArgumentException("maxWait must be > 0 when requests may wait, got " + maxWait);
        }
        this.leaseWait = maxPendingRequests == 0 ? LeaseWait.NONE : new LeaseWait(maxPendingRequests, maxWait);
        return this;
    }

    /**
     * Records what the responder of each of the connections this connector opens does: requests by interaction and
     * outcome, refusals and their reasons, sampled latency, leases. {@code metrics} makes one
     * {@link ResponderMetrics} per connection when it opens; {@code sluice-micrometer} provides one for
     * Micrometer. Default: none.
     */
    public RSocketConnector metrics(Supplier<? extends ResponderMetrics> metrics) {
        if (metrics == null) {
            throw new IllegalArgumentException("metrics must not be null");
        }
        this.metrics = metrics;
        return this;
    }

    /**
     * How this client receives payloads — responses to its requests, and the server's requests to its
     * {@link #responder}: {@link PayloadDecoder#ZERO_COPY} (the default) or heap copies that need no release
     * ({@link PayloadDecoder#COPY}).
     */
    public RSocketConnector payloadDecoder(PayloadDecoder decoder) {
        if (decoder == null) {
            throw new IllegalArgumentException("payloadDecoder must not be null");
        }
        this.payloadDecoder = decoder;
        return this;
    }

    /** Connects, sends SETUP, and emits the connection (the protocol does not acknowledge SETUP). */
    public Mono<Connection> connect(ClientTransport transport) {
        String mime = credentials != null && !metadataMimeTypeSet ? COMPOSITE : metadataMimeType;
        byte[] metadata;
        try {
            metadata = credentials == null ? setupMetadata : metadataWithCredentials(mime);
        } catch (IllegalStateException e) {
            return Mono.error(e);
        }
        ConnectionConfig config = new ConnectionConfig(mtu, maxInboundPayloadSize, maxActiveStreams,
            keepAliveInterval, keepAliveMaxLifetime, System::nanoTime, peerCloseDrain,
            metrics);
        boolean copy = payloadDecoder == PayloadDecoder.COPY;
        Function<Connection, RSocket> handler = responder;
        Function<Connection, RSocket> r = copy
            ? c -> new CopyingHandler(handler.apply(new CopyingConnection(c))) : handler;
        return transport.connect().flatMap(dc -> Mono.create(sink -> dc.executor().execute(() -> {
            try {
                ClientLeaseConfigurer l = leases;
                RSocketConnection c = RSocketConnection.client(dc, config, encodeSetup(dc, mime, metadata), r,
                    l == null ? null : l::configure, strictLease, leaseWait);
                sink.success(copy ? new CopyingConnection(c.requester()) : c.requester());
            } catch (Throwable t) {
                dc.close();
                sink.error(t);
            }
        })));
    }

    /** The SETUP metadata: the credentials' entry, then the entries of the setup payload's metadata. */
    private byte[] metadataWithCredentials(String mime) {
        boolean composite = COMPOSITE.equals(mime);
        if (!composite && !AUTHENTICATION.equals(mime)) {
            throw new IllegalStateException("authentication needs metadataMimeType " + COMPOSITE + " (or "
                + AUTHENTICATION + "), got '" + mime + "'");
        }
        if (!composite && setupMetadata != null) {
            throw new IllegalStateException("authentication with metadataMimeType " + AUTHENTICATION
                + " leaves no room for the setup payload's metadata; use " + COMPOSITE);
        }
        ByteBuf auth = Unpooled.buffer();
        ByteBuf out = Unpooled.buffer();
        try {
            if (credentials instanceof Credentials.Simple s) {
                AuthMetadata.encodeSimple(auth, s.username(), s.password());
            } else if (credentials instanceof Credentials.Bearer b) {
                AuthMetadata.encodeBearer(auth, b.token());
            } else {
                Credentials.Custom c = (Credentials.Custom) credentials;
                AuthMetadata.encodeCustom(auth, c.authType(), Unpooled.wrappedBuffer(c.payload()));
            }
            if (!composite) {
                return ByteBufUtil.getBytes(auth);
            }
            CompositeMetadata.addEntry(out, WellKnownMimeType.MESSAGE_RSOCKET_AUTHENTICATION, auth);
            if (setupMetadata != null) {
                out.writeBytes(setupMetadata);
            }
            return ByteBufUtil.getBytes(out);
        } finally {
            auth.release();
            out.release();
        }
    }

    private ByteBuf encodeSetup(DuplexConnection dc, String mime, byte[] metadataBytes) {
        ByteBuf data = setupData == null ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(setupData);
        ByteBuf metadata = metadataBytes == null ? null : Unpooled.wrappedBuffer(metadataBytes);
        int interval = (int) keepAliveInterval.toMillis();
        int lifetime = (int) keepAliveMaxLifetime.toMillis();
        boolean lease = leases != null;
        ByteBuf out = dc.alloc().buffer(SetupFrame.encodedLength(lease, interval, lifetime, null,
            mime, dataMimeType, metadata, data));
        SetupFrame.encode(out, lease, interval, lifetime, null, mime, dataMimeType, metadata, data);
        return out;
    }

    private static String checkMime(String name, String mime) {
        if (mime == null || mime.isEmpty() || mime.length() > 255 || !mime.chars().allMatch(c -> c < 128)) {
            throw new IllegalArgumentException(name + " must be 1..255 US-ASCII characters, got '" + mime + "'");
        }
        return mime;
    }
}
