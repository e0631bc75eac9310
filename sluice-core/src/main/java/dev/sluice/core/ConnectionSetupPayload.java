package dev.sluice.core;

import io.netty.buffer.ByteBuf;
import java.security.Principal;
import java.time.Duration;

/**
 * What a client said in its SETUP frame, as a server's {@link SocketAcceptor} sees it: the setup payload plus the
 * connection parameters.
 *
 * <p>The payload is valid while the acceptor runs; {@link #retain()} it to keep it longer (and release it then).
 * On a server that authenticates ({@link RSocketServer#authenticate}), {@link #principal()} is who the client is.
 */
public final class ConnectionSetupPayload implements Payload {

    private final Payload payload;
    private final Duration keepAliveInterval;
    private final Duration keepAliveMaxLifetime;
    private final String metadataMimeType;
    private final String dataMimeType;
    private final boolean leaseRequested;
    private final Principal principal;

    /** Takes ownership of {@code payload}. */
    public ConnectionSetupPayload(Payload payload, Duration keepAliveInterval, Duration keepAliveMaxLifetime,
                                  String metadataMimeType, String dataMimeType, boolean leaseRequested) {
        this(payload, keepAliveInterval, keepAliveMaxLifetime, metadataMimeType, dataMimeType, leaseRequested,
            null);
    }

    private ConnectionSetupPayload(Payload payload, Duration keepAliveInterval, Duration keepAliveMaxLifetime,
                                   String metadataMimeType, String dataMimeType, boolean leaseRequested,
                                   Principal principal) {
        this.payload = payload;
        this.keepAliveInterval = keepAliveInterval;
        this.keepAliveMaxLifetime = keepAliveMaxLifetime;
        this.metadataMimeType = metadataMimeType;
        this.dataMimeType = dataMimeType;
        this.leaseRequested = leaseRequested;
        this.principal = principal;
    }

    /**
     * This setup with {@code principal}: a second view of the same payload, so that retaining or releasing
     * either counts on the one reference count (release only one of them).
     */
    ConnectionSetupPayload withPrincipal(Principal principal) {
        return new ConnectionSetupPayload(payload, keepAliveInterval, keepAliveMaxLifetime, metadataMimeType,
            dataMimeType, leaseRequested, principal);
    }

    /**
     * Who the client is, as the server's {@link SetupAuthenticator} established it; null when the server
     * authenticates no one.
     */
    public Principal principal() {
        return principal;
    }

    /** How often the client sends KEEPALIVE. */
    public Duration keepAliveInterval() {
        return keepAliveInterval;
    }

    /** How long the client tolerates silence before it closes the connection. */
    public Duration keepAliveMaxLifetime() {
        return keepAliveMaxLifetime;
    }

    /** The MIME type of metadata on this connection, as the client declared it. */
    public String metadataMimeType() {
        return metadataMimeType;
    }

    /** The MIME type of data on this connection, as the client declared it. */
    public String dataMimeType() {
        return dataMimeType;
    }

    /** Whether the client set the L flag: it will honour leases and waits for one before sending requests. */
    public boolean leaseRequested() {
        return leaseRequested;
    }

    @Override
    public ByteBuf data() {
        return payload.data();
    }

    @Override
    public ByteBuf metadata() {
        return payload.metadata();
    }

    @Override
    public boolean hasMetadata() {
        return payload.hasMetadata();
    }

    @Override
    public int refCnt() {
        return payload.refCnt();
    }

    @Override
    public ConnectionSetupPayload retain() {
        payload.retain();
        return this;
    }

    @Override
    public ConnectionSetupPayload retain(int increment) {
        payload.retain(increment);
        return this;
    }

    @Override
    public ConnectionSetupPayload touch() {
        payload.touch();
        return this;
    }

    @Override
    public ConnectionSetupPayload touch(Object hint) {
        payload.touch(hint);
        return this;
    }

    @Override
    public boolean release() {
        return payload.release();
    }

    @Override
    public boolean release(int decrement) {
        return payload.release(decrement);
    }
}
