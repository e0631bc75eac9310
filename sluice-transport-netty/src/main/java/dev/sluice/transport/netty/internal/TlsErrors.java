package dev.sluice.transport.netty.internal;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Sits behind the {@link io.netty.handler.ssl.SslHandler} and rewrites the TLS failures it raises into
 * {@link TlsFailures#readable readable} ones before the engine sees them: a connection lost to a TLS alert then reads
 * {@code connection lost: TLS handshake failed: the server requires a client certificate}, not a class name and
 * BoringSSL's error code.
 */
public final class TlsErrors extends ChannelInboundHandlerAdapter {

    private final TlsFailures.Side side;

    public TlsErrors(TlsFailures.Side side) {
        this.side = side;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.fireExceptionCaught(TlsFailures.readable(cause, side));
    }
}
