package dev.sluice.transport.netty.internal;

import dev.sluice.core.transport.DuplexConnection;
import dev.sluice.core.transport.FrameHandler;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.util.concurrent.EventExecutor;
import java.net.SocketAddress;

/**
 * An upgraded WebSocket channel as a {@link DuplexConnection}: one binary message per RSocket frame, no length
 * prefix on the wire.
 *
 * <p>It still asks the engine for {@linkplain #lengthPrefixed() length-prefixed batches}, so that the engine encodes
 * a burst of frames back to back into its loop's shared buffer as it does for TCP; {@link WebsocketFramer} then
 * turns the prefixes into WebSocket headers on the way out. Inbound, {@link WebsocketReader} delivers whole
 * messages.
 */
public final class WebsocketDuplexConnection implements DuplexConnection {

    private final Channel channel;
    private final WebsocketReader reader;
    private final boolean mask;

    /**
     * @param mask whether outbound frames are masked: true on a client's connection, as RFC 6455 requires, false on
     *             a server's
     */
    public WebsocketDuplexConnection(Channel channel, WebsocketReader reader, boolean mask) {
        this.channel = channel;
        this.reader = reader;
        this.mask = mask;
    }

    @Override
    public ByteBufAllocator alloc() {
        return channel.alloc();
    }

    @Override
    public EventExecutor executor() {
        return channel.eventLoop();
    }

    /** True: batches arrive prefixed, and {@link #write} turns each frame into a message of its own. */
    @Override
    public boolean lengthPrefixed() {
        return true;
    }

    @Override
    public void start(FrameHandler handler) {
        reader.handler(handler);
        if (!channel.isActive()) {
            reader.reportClose(null);
            return;
        }
        channel.config().setAutoRead(true);
        channel.read();
    }

    @Override
    public void write(ByteBuf frames) {
        WebsocketFramer.write(channel, frames, mask);
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
        reader.close();
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
        return "ws" + channel.remoteAddress();
    }
}
