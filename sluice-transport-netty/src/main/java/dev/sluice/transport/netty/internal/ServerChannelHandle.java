package dev.sluice.transport.netty.internal;

import dev.sluice.core.transport.ServerHandle;
import io.netty.channel.Channel;
import java.net.SocketAddress;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/** A bound server channel as a {@link ServerHandle}: disposing it closes the listening socket. Thread-safe. */
public final class ServerChannelHandle implements ServerHandle {

    private final Channel channel;
    private final Sinks.Empty<Void> closed = Sinks.empty();

    public ServerChannelHandle(Channel channel) {
        this.channel = channel;
        channel.closeFuture().addListener(f -> closed.tryEmitEmpty());
    }

    @Override
    public SocketAddress address() {
        return channel.localAddress();
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
