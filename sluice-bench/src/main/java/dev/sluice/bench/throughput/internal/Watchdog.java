package dev.sluice.bench.throughput.internal;

import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Ends a benchmark JVM that outlived its purpose: when the driver that started it is gone (killed, crashed), or
 * after a maximum run time, so that no server or client is left spinning on a core. Runs on one daemon thread
 * and checks twice a second; it halts the JVM, as nothing a benchmark process holds needs an orderly shutdown.
 */
public final class Watchdog {

    private static final long PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    private Watchdog() {
    }

    /** Starts watching for {@code options}' parent pid and maximum run time; does nothing if neither is set. */
    public static void start(ChildOptions options) {
        start(options.parentPid(), options.maxSeconds());
    }

    /**
     * @param parentPid  the process whose end ends this one, or -1
     * @param maxSeconds the longest this process may run, or 0 for no limit
     */
    public static void start(long parentPid, long maxSeconds) {
        if (parentPid < 0 && maxSeconds <= 0) {
            return;
        }
        Optional<ProcessHandle> parent = parentPid < 0 ? Optional.empty() : ProcessHandle.of(parentPid);
        if (parentPid >= 0 && parent.isEmpty()) {
            halt("parent process " + parentPid + " is not running", 3);
        }
        long deadline = maxSeconds <= 0 ? Long.MAX_VALUE : System.nanoTime() + TimeUnit.SECONDS.toNanos(maxSeconds);
        Thread t = new Thread(() -> {
            while (true) {
                LockSupport.parkNanos(PERIOD_NANOS);
                if (parent.isPresent() && !parent.get().isAlive()) {
                    halt("parent process " + parentPid + " is gone", 3);
                }
                if (System.nanoTime() - deadline > 0) {
                    halt("maximum run time of " + maxSeconds + " s reached", 4);
                }
            }
        }, "bench-watchdog");
        t.setDaemon(true);
        t.start();
    }

    private static void halt(String why, int status) {
        System.err.println("bench watchdog: " + why + "; exiting");
        System.err.flush();
        Runtime.getRuntime().halt(status);
    }
}
