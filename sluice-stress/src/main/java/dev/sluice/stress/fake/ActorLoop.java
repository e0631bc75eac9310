package dev.sluice.stress.fake;

import io.netty.util.concurrent.AbstractEventExecutor;
import io.netty.util.concurrent.Future;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * An event loop that a jcstress actor plays: whichever thread last called {@link #enter} is "in the event loop",
 * and {@link #execute} only queues, for that thread to run in {@link #drain}.
 *
 * <p>Why not a Netty event loop: jcstress runs each actor on its own thread and calls it once per state object,
 * so the loop must be a role a thread takes for one call — the loop actor at its start, the arbiter (which runs
 * what is still queued, as a real loop eventually would) — not a thread of its own. {@code LoopSubscriber} and the
 * interaction classes need exactly {@code inEventLoop()} and {@code execute}; nothing here ever shuts down.
 *
 * <p>A task that throws is recorded in {@link #failures} and the drain goes on, as Netty's loops log and go on.
 *
 * <p>Thread-safe: {@link #execute} from any thread; {@link #drain} on the thread that entered.
 */
public final class ActorLoop extends AbstractEventExecutor {

    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final StringBuilder failures = new StringBuilder();
    private volatile Thread thread;

    /** The calling thread is the event loop from now on. */
    public void enter() {
        thread = Thread.currentThread();
    }

    /** No thread is the event loop (after a state's set-up, so that every actor but the loop's queues). */
    public void leave() {
        thread = null;
    }

    /** Runs the queued tasks, and those they queue, until none is left; returns how many ran. */
    public int drain() {
        if (!inEventLoop()) {
            throw new IllegalStateException("drain() off the loop thread: " + Thread.currentThread());
        }
        int n = 0;
        for (Runnable task; (task = tasks.poll()) != null; n++) {
            try {
                task.run();
            } catch (RuntimeException e) {
                failures.append('!').append(e.getClass().getSimpleName());
            }
        }
        return n;
    }

    /** What the tasks threw, "!" and the simple class name each; empty when nothing. Read after the drains. */
    public String failures() {
        return failures.toString();
    }

    @Override
    public boolean inEventLoop(Thread t) {
        return t == thread;
    }

    @Override
    public void execute(Runnable task) {
        tasks.add(task);
    }

    @Override
    public boolean isShuttingDown() {
        return false;
    }

    @Override
    public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
        throw new UnsupportedOperationException("an ActorLoop never shuts down");
    }

    @Override
    public Future<?> terminationFuture() {
        throw new UnsupportedOperationException("an ActorLoop never shuts down");
    }

    @Override
    @Deprecated
    public void shutdown() {
        throw new UnsupportedOperationException("an ActorLoop never shuts down");
    }

    @Override
    public boolean isShutdown() {
        return false;
    }

    @Override
    public boolean isTerminated() {
        return false;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return false;
    }
}
