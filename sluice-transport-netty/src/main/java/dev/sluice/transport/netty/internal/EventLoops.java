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

    /** The system property that sets how many worker event loops there are; the available processors if absent. */
    public static final String WORKER_THREADS_PROPERTY = "sluice.transport.workerThreads";

    /**
     * The most worker event loops the property may ask for. Each holds a thread and, with epoll, two file
     * descriptors from the start: a value above this is a typo, not a sizing.
     */
    public static final int MAX_WORKER_THREADS = 4096;

    /** Made by the first {@link #workers()} call that finds a valid property. */
    private static volatile EventLoopGroup workers;

    private EventLoops() {
    }

    /** Accepting server sockets. */
    public static EventLoopGroup boss() {
        return Holder.BOSS;
    }

    /**
     * Reading and writing connections: {@value #WORKER_THREADS_PROPERTY} loops, made on first use.
     *
     * @throws IllegalArgumentException if the property is set to anything but a whole number from 1 to
     *                                  {@value #MAX_WORKER_THREADS} (checked again at each call until the loops exist)
     */
    public static EventLoopGroup workers() {
        EventLoopGroup w = workers;
        return w != null ? w : startWorkers();
    }

    private static synchronized EventLoopGroup startWorkers() {
        if (workers == null) {
            int threads = workerThreads(System.getProperty(WORKER_THREADS_PROPERTY),
                Runtime.getRuntime().availableProcessors());
            workers = group(threads, "sluice-io");
        }
        return workers;
    }

    /**
     * The worker loop count {@code value} of {@value #WORKER_THREADS_PROPERTY} asks for; {@code fallback} when it is
     * absent (null). Why not Netty's reading, where 0 means twice the processors: a 0 here is more likely a mistake
     * than a wish for that, and a value Netty cannot read would otherwise be dropped without a word.
     *
     * @throws IllegalArgumentException if {@code value} is not a whole number from 1 to {@value #MAX_WORKER_THREADS}
     */
    static int workerThreads(String value, int fallback) {
        if (value == null) {
            return fallback;
        }
        try {
            int threads = Integer.parseInt(value.trim());
            if (threads >= 1 && threads <= MAX_WORKER_THREADS) {
                return threads;
            }
        } catch (NumberFormatException notANumber) {
            // reported below, as a value out of range is
        }
        throw new IllegalArgumentException("-D" + WORKER_THREADS_PROPERTY + " must be a whole number from 1 to "
            + MAX_WORKER_THREADS + ", got '" + value + "'");
    }

    public static Class<? extends ServerChannel> serverChannel() {
        return EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    public static Class<? extends SocketChannel> clientChannel() {
        return EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    private static EventLoopGroup group(int threads, String name) {
        DefaultThreadFactory f = new DefaultThreadFactory(name, true);
        return EPOLL ? new EpollEventLoopGroup(threads, f) : new NioEventLoopGroup(threads, f);
    }

    /** Loaded lazily so that merely touching this class starts no threads. */
    private static final class Holder {
        static final EventLoopGroup BOSS = group(1, "sluice-accept");
    }
}
