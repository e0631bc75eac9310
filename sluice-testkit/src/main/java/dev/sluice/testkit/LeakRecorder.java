package dev.sluice.testkit;

import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Collects every leak report Netty's {@link ResourceLeakDetector} makes in this JVM, so that tests can fail on
 * them instead of leaving a log line nobody reads.
 *
 * <p>It must be installed before the first {@code ByteBuf} class initialises (Netty creates its detector once, in a
 * static field): {@link LeakGateSessionListener} does that when the JUnit launcher session opens.
 *
 * <p>Netty tracks pooled and direct buffers only: a test whose buffers come from {@code Unpooled.buffer()} (heap)
 * is not covered. Allocate test buffers from {@code PooledByteBufAllocator.DEFAULT}.
 *
 * <p>Thread-safe: reports arrive on whichever thread allocates next.
 */
public final class LeakRecorder {

    private static final ConcurrentLinkedQueue<String> REPORTS = new ConcurrentLinkedQueue<>();
    private static volatile boolean installed;

    private LeakRecorder() {
    }

    /** Installs the recording detector factory once; later calls do nothing. */
    public static synchronized void install() {
        if (installed) {
            return;
        }
        if (ResourceLeakDetector.getLevel().ordinal() < ResourceLeakDetector.Level.PARANOID.ordinal()) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        }
        ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new RecordingFactory());
        installed = true;
    }

    /** Whether {@link #install()} ran before this call. */
    public static boolean installed() {
        return installed;
    }

    /** Removes and returns the reports collected so far. */
    public static List<String> drain() {
        List<String> out = new ArrayList<>();
        for (String r; (r = REPORTS.poll()) != null; ) {
            out.add(r);
        }
        return out;
    }

    /**
     * Makes the detector look at what the garbage collector found: collects garbage, then allocates and releases a
     * buffer, which is when Netty polls its reference queue.
     */
    public static void collectAndPoll() {
        for (int i = 0; i < 3; i++) {
            System.gc();
            System.runFinalization();
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            io.netty.buffer.ByteBufAllocator.DEFAULT.buffer(8).release();
            io.netty.buffer.Unpooled.buffer(8).release();
        }
    }

    private static final class RecordingFactory extends ResourceLeakDetectorFactory {
        @Override
        public <T> ResourceLeakDetector<T> newResourceLeakDetector(
                Class<T> resource, int samplingInterval, long maxActive) {
            return new RecordingDetector<>(resource, samplingInterval);
        }

        @Override
        public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval) {
            return new RecordingDetector<>(resource, samplingInterval);
        }
    }

    private static final class RecordingDetector<T> extends ResourceLeakDetector<T> {
        RecordingDetector(Class<T> resource, int samplingInterval) {
            super(resource, samplingInterval);
        }

        @Override
        protected void reportTracedLeak(String resourceType, String records) {
            REPORTS.add("LEAK: " + resourceType + " was not released" + records);
            super.reportTracedLeak(resourceType, records);
        }

        @Override
        protected void reportUntracedLeak(String resourceType) {
            REPORTS.add("LEAK: " + resourceType + " was not released (no records)");
            super.reportUntracedLeak(resourceType);
        }
    }
}
