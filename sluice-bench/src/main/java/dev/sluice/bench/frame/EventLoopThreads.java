package dev.sluice.bench.frame;

import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The executor JMH runs these benchmarks' threads on ({@code -Djmh.executor=CUSTOM
 * -Djmh.executor.class=dev.sluice.bench.frame.EventLoopThreads}, set by each class's {@code @Fork}): Netty
 * {@code FastThreadLocalThread}s, as event loops are. On JMH's own plain threads the engine measured a path it
 * never takes in a server or a client: its frame writer gets a loop's shared batch buffer only on such a thread,
 * so each flush carved a fresh 32 KiB buffer from the allocator's shared arena under a lock, and every fast
 * thread-local lookup took the slow path: together about two thirds of the requester's request-response there.
 */
public final class EventLoopThreads extends ThreadPoolExecutor {

    /** The JMH property values that select this executor, for a {@code @Fork}'s {@code jvmArgsAppend}. */
    static final String JMH_EXECUTOR = "-Djmh.executor=CUSTOM";
    static final String JMH_EXECUTOR_CLASS = "-Djmh.executor.class=dev.sluice.bench.frame.EventLoopThreads";

    /** The constructor JMH calls: as many threads as the benchmark runs, named with {@code prefix}. */
    public EventLoopThreads(int threads, String prefix) {
        super(threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
            new DefaultThreadFactory(prefix, true));
    }
}
