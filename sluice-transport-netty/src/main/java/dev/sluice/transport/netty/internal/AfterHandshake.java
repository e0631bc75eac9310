package dev.sluice.transport.netty.internal;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import java.util.function.Consumer;

/**
 * The last handler of a TLS server connection: runs {@code onSecure} (which hands the connection to the engine) once
 * the handshake has succeeded, and reports a failed handshake's reason, in {@link TlsFailures}' words, to
 * {@code onFailure} before closing. Until then the engine knows nothing of the connection: a peer that never finishes
 * its handshake costs no RSocket state.
 *
 * <p>Handlers that {@code onSecure} adds behind this one receive what follows. Exceptions before the handshake has
 * succeeded stop here: they are the handshake's failure, which the completion event reports.
 */
public final class AfterHandshake extends ChannelInboundHandlerAdapter {

    private final Runnable onSecure;
    private final Consumer<String> onFailure;
    private final long handshakeTimeoutMillis;
    private boolean secure;

    public AfterHandshake(Runnable onSecure, Consumer<String> onFailure, long handshakeTimeoutMillis) {
        this.onSecure = onSecure;
        this.onFailure = onFailure;
        this.handshakeTimeoutMillis = handshakeTimeoutMillis;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof SslHandshakeCompletionEvent done) {
            if (done.isSuccess()) {
                secure = true;
                ctx.pipeline().remove(LingeringClose.class);
                onSecure.run();
            } else {
                onFailure.accept(TlsFailures.reason(done.cause(), TlsFailures.Side.SERVER, handshakeTimeoutMillis));
                ctx.close();
            }
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (secure) {
            ctx.fireExceptionCaught(cause);
        }
    }
}
