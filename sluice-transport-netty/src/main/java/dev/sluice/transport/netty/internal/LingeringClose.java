package dev.sluice.transport.netty.internal;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The first handler of a TLS server connection until its handshake succeeds, and of any server connection refused
 * at SETUP ({@link NettyDuplexConnection#closeAfterRefusal()}): turns a close into a lingering close, so that the
 * peer gets to read why it was refused (a TLS alert, or ERROR[REJECTED_SETUP]).
 *
 * <p>Why: a socket closed with unread input, or that receives input after its close, answers with a TCP reset, and a
 * reset makes the peer's kernel drop what it had received but not yet read: the very alert that says what was wrong.
 * A TLS 1.3 client has sent its first frames by the time the server refuses its certificate, so this is the usual
 * case, not a corner; so is a plaintext client that sends its first requests right behind its SETUP. Instead, the
 * close here flushes what was written, then reads and drops whatever arrives, and
 * closes when the peer closes (it does on reading the refusal) or after {@value #LINGER_MILLIS} ms. Under TLS no FIN
 * is sent first: a FIN read together with the alert lets a BoringSSL client miss the alert (seen in this module's
 * tests). A plaintext refusal is followed by a FIN once flushed, so that a peer reading to the end of the stream
 * gets there at once instead of after the linger.
 *
 * <p>Removed from the pipeline once the handshake succeeds: later closes are plain closes. Event loop only.
 */
public final class LingeringClose extends ChannelDuplexHandler {

    /** The longest a refused connection is kept open for its peer to read the refusal. */
    static final long LINGER_MILLIS = 2000;

    /** Whether to half-close (FIN) once the refusal is flushed: plaintext only (see the class comment). */
    private final boolean finFirst;
    private boolean lingering;

    /** A lingering close that sends no FIN before the peer closes: for TLS, whose alert a FIN can hide. */
    public LingeringClose() {
        this(false);
    }

    /**
     * @param finFirst half-close the connection once what was written is flushed, so that a plaintext peer reads
     *     the refusal and then the end of the stream at once, while what it still sends is read and dropped
     */
    public LingeringClose(boolean finFirst) {
        this.finFirst = finFirst;
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        if (lingering) {
            // Another handler's close of the same failure (the decoder's, after the exception): already under way.
            ctx.channel().closeFuture().addListener(closed -> promise.trySuccess());
            return;
        }
        if (!ctx.channel().isActive()) {
            ctx.close(promise);
            return;
        }
        lingering = true;
        // The caller's close is done when the channel is; the paths below close with promises of their own.
        ctx.channel().closeFuture().addListener(closed -> promise.trySuccess());
        ctx.channel().config().setAutoRead(true);
        if (finFirst && ctx.channel() instanceof DuplexChannel duplex) {
            // After every earlier write has gone out: shutting the output down fails writes still pending.
            ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(flushed -> duplex.shutdownOutput());
        } else {
            ctx.flush();
        }
        ScheduledFuture<?> linger = ctx.executor().schedule(() -> ctx.close(), LINGER_MILLIS, TimeUnit.MILLISECONDS);
        ctx.channel().closeFuture().addListener(closed -> linger.cancel(false));
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (lingering) {
            ReferenceCountUtil.release(msg);
            return;
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (!lingering) {
            ctx.fireChannelReadComplete();
        }
    }
}
