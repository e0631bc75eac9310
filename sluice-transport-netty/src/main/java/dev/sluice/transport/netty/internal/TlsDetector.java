package dev.sluice.transport.netty.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The first handler of a connection to a TLS server: reads the first record header and, if it is TLS, puts an
 * {@link SslHandler} from the server's current context in its place (the bytes read so far go on to it); otherwise
 * answers in the clear with the transport's {@link PlaintextRefusal} (ERROR[REJECTED_SETUP] {@code this server
 * requires TLS} for TCP, an HTTP 400 for WebSocket) and closes. A plaintext client so learns why at once instead of
 * seeing its connection drop.
 *
 * <p>Reads with auto-read off, and closes a connection that has not sent a record header within the handshake
 * timeout; from then on the {@link SslHandler}'s own handshake timeout applies.
 */
public final class TlsDetector extends ByteToMessageDecoder {

    /** The bytes {@link SslHandler#isEncrypted} needs: a TLS record header. */
    private static final int RECORD_HEADER = 5;

    private final Supplier<SslContext> context;
    private final long handshakeTimeoutMillis;
    private final Consumer<String> onRefused;
    private final PlaintextRefusal plaintext;
    private ScheduledFuture<?> deadline;
    private boolean refused;

    /**
     * @param context                the context a TLS connection handshakes with, asked once per connection
     * @param handshakeTimeoutMillis how long the peer has for the record header, and then for the handshake
     * @param onRefused              told why a connection was refused (for a log line); called on the event loop
     * @param plaintext              what a plaintext client is answered
     */
    public TlsDetector(Supplier<SslContext> context, long handshakeTimeoutMillis, Consumer<String> onRefused,
        PlaintextRefusal plaintext) {
        this.context = context;
        this.handshakeTimeoutMillis = handshakeTimeoutMillis;
        this.onRefused = onRefused;
        this.plaintext = plaintext;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        deadline = ctx.executor().schedule(() -> {
            onRefused.accept("no TLS record within " + handshakeTimeoutMillis + " ms");
            ctx.close();
        }, handshakeTimeoutMillis, TimeUnit.MILLISECONDS);
        super.channelActive(ctx);
        ctx.read();
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (refused) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (in.readableBytes() < RECORD_HEADER) {
            return;
        }
        cancelDeadline();
        if (SslHandler.isEncrypted(in, false)) {
            SslHandler tls = context.get().newHandler(ctx.alloc());
            tls.setHandshakeTimeoutMillis(handshakeTimeoutMillis);
            // Replacing a ByteToMessageDecoder hands what it has buffered to the new handler.
            ctx.pipeline().replace(this, "tls", tls);
            return;
        }
        refused = true;
        in.skipBytes(in.readableBytes());
        onRefused.accept("not a TLS client (plaintext?): answered " + plaintext.describe());
        ctx.writeAndFlush(plaintext.encode(ctx.alloc())).addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        cancelDeadline();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancelDeadline();
        super.channelInactive(ctx);
    }

    private void cancelDeadline() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }
}
