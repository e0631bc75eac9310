package dev.sluice.transport.netty.internal;

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

/**
 * The process-wide event loops shared by every Sluice client and server: native epoll when the platform has it,
 * NIO otherwise. Threads are daemons, so they never keep a JVM alive. Created on first use.
 */
public final class EventLoops {

    /** Whether native epoll is used. */
    public static final boolean EPOLL = Epoll.isAvailable()
        && !Boolean.getBoolean("sluice.transport.noEpoll");

    private static final int WORKER_THREADS = Integer.getInteger("sluice.transport.workerThreads",
        Runtime.getRuntime().availableProcessors());

    private EventLoops() {
    }

    /** Accepting server sockets. */
    public static EventLoopGroup boss() {
        return Holder.BOSS;
    }

    /** Reading and writing connections. */
    public static EventLoopGroup workers() {
        return Holder.WORKERS;
    }

    public static Class<? extends ServerChannel> serverChannel() {
        return EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    public static Class<? extends SocketChannel> clientChannel() {
        return EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    /** Loaded lazily so that merely touching this class starts no threads. */
    private static final class Holder {
        static final EventLoopGroup BOSS = group(1, "sluice-accept");
        static final EventLoopGroup WORKERS = group(WORKER_THREADS, "sluice-io");

        private static EventLoopGroup group(int threads, String name) {
            DefaultThreadFactory f = new DefaultThreadFactory(name, true);
            return EPOLL ? new EpollEventLoopGroup(threads, f) : new NioEventLoopGroup(threads, f);
        }
    }
}
