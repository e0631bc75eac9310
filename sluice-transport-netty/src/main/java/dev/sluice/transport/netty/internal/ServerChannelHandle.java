package dev.sluice.transport.netty.internal;

import dev.sluice.core.transport.ServerHandle;
import io.netty.channel.Channel;
import java.net.SocketAddress;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/** A bound server channel as a {@link ServerHandle}: disposing it closes the listening socket. Thread-safe. */
public final class ServerChannelHandle implements ServerHandle {

    private final Channel channel;
    private final SocketAddress address;
    private final Sinks.Empty<Void> closed = Sinks.empty();

    /** The handle of {@code channel}, reporting its local address. */
    public ServerChannelHandle(Channel channel) {
        this(channel, channel.localAddress());
    }

    /** The handle of {@code channel}, reporting {@code address} (a Unix socket's path in the JDK's form, say). */
    public ServerChannelHandle(Channel channel, SocketAddress address) {
        this.channel = channel;
        this.address = address;
        channel.closeFuture().addListener(f -> closed.tryEmitEmpty());
    }

    @Override
    public SocketAddress address() {
        return address;
    }

    @Override
    public Mono<Void> onClose() {
        return closed.asMono();
    }

    @Override
    public void dispose() {
        channel.close();
    }

    @Override
    public boolean isDisposed() {
        return !channel.isOpen();
    }
}
