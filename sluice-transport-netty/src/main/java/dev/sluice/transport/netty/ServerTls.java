package dev.sluice.transport.netty;

import dev.sluice.transport.netty.internal.AfterHandshake;
import dev.sluice.transport.netty.internal.LingeringClose;
import dev.sluice.transport.netty.internal.PlaintextRefusal;
import dev.sluice.transport.netty.internal.ReloadingServerContext;
import dev.sluice.transport.netty.internal.TlsDetector;
import dev.sluice.transport.netty.internal.TlsErrors;
import dev.sluice.transport.netty.internal.TlsFailures;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import java.util.concurrent.ScheduledFuture;
import java.util.function.Consumer;
import org.slf4j.Logger;

/**
 * The TLS side of a server transport, the same for TCP and WebSocket: the certificate files loaded (and reloaded while
 * the server runs), and the handlers that put each accepted connection through its handshake before anything else
 * sees it.
 *
 * <p>An accepted channel gets, in order: a {@link LingeringClose} (so that a refused peer reads why), a
 * {@link TlsDetector} that becomes the {@code SslHandler} or answers a plaintext client with the transport's
 * {@link PlaintextRefusal}, a {@link TlsErrors}, the transport's own handlers, and an {@link AfterHandshake} that runs
 * the transport's next step once the handshake has succeeded. A refused connection is logged at DEBUG on the
 * transport's logger: {@code TLS connection from /10.0.0.7:51234 refused: peer did not send a client certificate}.
 *
 * <p>Made once per transport, when it is made secure; the handlers are made per channel, on its event loop.
 */
final class ServerTls {

    private final TlsServer config;
    private final ReloadingServerContext context;
    private final Logger log;
    private final PlaintextRefusal plaintext;

    /**
     * Loads the files of {@code config} now.
     *
     * @param log       the transport's logger, for refusals and reloads
     * @param plaintext what a plaintext client is answered
     * @throws IllegalArgumentException naming the file, when a file cannot be read or used
     */
    ServerTls(TlsServer config, Logger log, PlaintextRefusal plaintext) {
        this.context = new ReloadingServerContext(config.certificateChain(), config.privateKey(), config.clientCa(),
            config.sslProvider(), log);
        this.config = config;
        this.log = log;
        this.plaintext = plaintext;
    }

    TlsServer config() {
        return config;
    }

    ReloadingServerContext context() {
        return context;
    }

    /**
     * Adds the TLS handlers around {@code inner} to a newly accepted channel; {@code onSecure} runs on its event loop
     * once the handshake has succeeded, and never for a refused connection.
     *
     * @param refusals also told why each refused connection was (tests), or null
     */
    void initChannel(Channel ch, Consumer<String> refusals, Runnable onSecure, ChannelHandler... inner) {
        long timeout = config.handshakeTimeout().toMillis();
        Consumer<String> refused = why -> {
            log.debug("TLS connection from {} refused: {}", ch.remoteAddress(), why);
            if (refusals != null) {
                refusals.accept(why);
            }
        };
        ch.pipeline().addLast(new LingeringClose(), new TlsDetector(context::current, timeout, refused, plaintext),
            new TlsErrors(TlsFailures.Side.SERVER));
        ch.pipeline().addLast(inner);
        ch.pipeline().addLast(new AfterHandshake(onSecure, refused, timeout));
    }

    /** Checks the files for changes every {@link TlsServer#reloadInterval} until {@code server} closes. */
    void watchWhileOpen(Channel server) {
        if (!config.reloadInterval().isZero()) {
            ScheduledFuture<?> watch = context.watch(config.reloadInterval());
            server.closeFuture().addListener(closed -> watch.cancel(false));
        }
    }
}
