package dev.sluice.transport.netty.internal;

import dev.sluice.core.transport.DuplexConnection;
import dev.sluice.core.transport.FrameHandler;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.EventExecutor;
import java.net.SocketAddress;

/**
 * A TCP channel, plain or behind TLS, as a {@link DuplexConnection}: length-prefixed frames, writes with the void
 * promise.
 */
public final class NettyDuplexConnection implements DuplexConnection {

    private final Channel channel;
    private final FrameDecoder decoder;

    public NettyDuplexConnection(Channel channel, FrameDecoder decoder) {
        this.channel = channel;
        this.decoder = decoder;
    }

    @Override
    public ByteBufAllocator alloc() {
        return channel.alloc();
    }

    @Override
    public EventExecutor executor() {
        return channel.eventLoop();
    }

    @Override
    public boolean lengthPrefixed() {
        return true;
    }

    @Override
    public void start(FrameHandler handler) {
        decoder.handler(handler);
        if (!channel.isActive()) {
            // The decoder has told the handler, with the cause of the failure if there was one.
            return;
        }
        channel.config().setAutoRead(true);
        channel.read();
    }

    @Override
    public void write(ByteBuf frames) {
        channel.write(frames, channel.voidPromise());
    }

    @Override
    public void flush() {
        channel.flush();
    }

    @Override
    public boolean isWritable() {
        return channel.isWritable();
    }

    @Override
    public void close() {
        channel.close();
    }

    /**
     * Lingers ({@link LingeringClose}, first in the pipeline so that it also sees what TLS would decrypt); over
     * plaintext with a FIN once the refusal is flushed.
     */
    @Override
    public void closeAfterRefusal() {
        if (channel.pipeline().get(LingeringClose.class) == null) {
            channel.pipeline().addFirst(new LingeringClose(channel.pipeline().get(SslHandler.class) == null));
        }
        channel.close();
    }

    @Override
    public SocketAddress remoteAddress() {
        return channel.remoteAddress();
    }

    @Override
    public SocketAddress localAddress() {
        return channel.localAddress();
    }

    @Override
    public String toString() {
        return (channel.pipeline().get(SslHandler.class) != null ? "tls" : "tcp") + channel.remoteAddress();
    }
}
