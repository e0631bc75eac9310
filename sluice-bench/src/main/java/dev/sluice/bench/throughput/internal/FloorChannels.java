package dev.sluice.bench.throughput.internal;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/** The raw-Netty floor's transport: epoll when available (as every other implementation uses), NIO otherwise. */
public final class FloorChannels {

    private static final boolean EPOLL = Epoll.isAvailable();

    private FloorChannels() {
    }

    /** A one-thread event loop group of daemon threads. */
    public static EventLoopGroup group(String name) {
        DefaultThreadFactory threads = new DefaultThreadFactory(name, true);
        return EPOLL ? new EpollEventLoopGroup(1, threads) : new NioEventLoopGroup(1, threads);
    }

    public static Class<? extends ServerChannel> serverChannel() {
        return EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    public static Class<? extends SocketChannel> clientChannel() {
        return EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
    }
}
