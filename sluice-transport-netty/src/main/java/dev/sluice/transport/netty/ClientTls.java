package dev.sluice.transport.netty;

import dev.sluice.transport.netty.internal.TlsContexts;
import dev.sluice.transport.netty.internal.TlsFailures;
import io.netty.channel.Channel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import java.util.function.BiConsumer;

/**
 * The TLS side of a client transport, the same for TCP and WebSocket: the context built from a {@link TlsClient}
 * (its files read once), the {@link SslHandler} for each connection (checking, and sending as SNI, the host connected
 * to or the configured server name), and the one-line reason of a failed handshake.
 *
 * <p>Immutable; shared by every connection of its transport.
 */
final class ClientTls {

    private final TlsClient config;
    private final SslContext context;

    /**
     * Reads the files of {@code config} now.
     *
     * @throws IllegalArgumentException naming the file, when a file cannot be read or used
     */
    ClientTls(TlsClient config) {
        this.context = TlsContexts.client(config.ca(), config.certificateChain(), config.privateKey(),
            config.verifyHostname(), config.sslProvider());
        this.config = config;
    }

    TlsClient config() {
        return config;
    }

    /** The handler for a connection to {@code host:port}, its handshake bounded by {@code timeoutMillis}. */
    SslHandler newHandler(Channel ch, String host, int port, long timeoutMillis) {
        String name = config.serverName() != null ? config.serverName() : host;
        SslHandler handler = context.newHandler(ch.alloc(), name, port);
        handler.setHandshakeTimeoutMillis(timeoutMillis);
        return handler;
    }

    /** Who this client is to the failure messages: whether it presents a certificate. */
    TlsFailures.Side side() {
        return config.certificateChain() != null ? TlsFailures.Side.CLIENT_WITH_CERTIFICATE : TlsFailures.Side.CLIENT;
    }

    /**
     * Calls {@code done} on the event loop once the handshake of {@code handler} has ended: with null when it
     * succeeded, else with the reason ({@code TLS handshake failed: certificate expired at ...}) and the cause. Reads
     * meanwhile: the transports leave auto-read off until the engine starts.
     */
    void awaitHandshake(Channel ch, SslHandler handler, long timeoutMillis, BiConsumer<String, Throwable> done) {
        handler.handshakeFuture().addListener(hs -> {
            if (hs.isSuccess()) {
                done.accept(null, null);
            } else {
                done.accept("TLS handshake failed: " + TlsFailures.reason(hs.cause(), side(), timeoutMillis),
                    hs.cause());
            }
        });
        ch.read();
    }
}
