package dev.sluice.bench.files;

import com.sun.management.GarbageCollectionNotificationInfo;
import io.netty.util.internal.PlatformDependent;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Keeps three memory peaks since the last {@link #reset()}:
 * <ul>
 *   <li><em>retained heap</em>: the heap in use right after each garbage collection that ended since the reset,
 *   i.e. what a writer keeps alive (queued chunks), not what it merely allocated;</li>
 *   <li><em>heap in use</em>, sampled every millisecond as {@code MemoryMXBean} reports it (live data plus garbage
 *   not yet collected: the figure the greed paper's benchmark sampled);</li>
 *   <li><em>direct memory</em>, sampled likewise: the JDK's direct buffers plus Netty's own direct allocations, which
 *   the heap figures do not see.</li>
 * </ul>
 */
final class MemorySampler implements AutoCloseable {

    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final BufferPoolMXBean direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
            .filter(b -> b.getName().equals("direct")).findFirst().orElseThrow();
    private final Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName).collect(Collectors.toSet());
    private final AtomicLong peakRetained = new AtomicLong();
    private final AtomicLong peakHeap = new AtomicLong();
    private final AtomicLong peakDirect = new AtomicLong();
    /** The heap in use at the last reset, right after a full collection: the JVM's own live data. */
    private volatile long baseline;
    /** JVM uptime in ms at the last reset: collections that ended before it belong to the previous measurement. */
    private volatile long resetAt;
    private volatile boolean running = true;
    private final NotificationListener listener = this::onGc;

    MemorySampler() {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            ((NotificationEmitter) gc).addNotificationListener(listener, null, null);
        }
        Thread thread = new Thread(() -> {
            while (running) {
                sample();
                LockSupport.parkNanos(1_000_000);
            }
        }, "memory-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    private void onGc(Notification n, Object handback) {
        if (!n.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
            return;
        }
        GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from(
                (CompositeData) n.getUserData());
        if (info.getGcInfo().getEndTime() < resetAt) {
            return;
        }
        long after = 0;
        for (Map.Entry<String, MemoryUsage> e : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(e.getKey())) {
                after += e.getValue().getUsed();
            }
        }
        peakRetained.accumulateAndGet(after, Math::max);
    }

    private void sample() {
        peakHeap.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
        long netty = Math.max(0, PlatformDependent.usedDirectMemory());
        peakDirect.accumulateAndGet(direct.getMemoryUsed() + netty, Math::max);
    }

    /** Forgets the peaks; call right after a full collection, whose result is the retained baseline. */
    void reset() {
        resetAt = ManagementFactory.getRuntimeMXBean().getUptime();
        baseline = memory.getHeapMemoryUsage().getUsed();
        peakRetained.set(baseline);
        peakHeap.set(0);
        peakDirect.set(0);
        sample();
    }

    /** The heap in use at the last {@link #reset()}. */
    long baseline() {
        return baseline;
    }

    long peakRetained() {
        return peakRetained.get();
    }

    long peakHeap() {
        sample();
        return peakHeap.get();
    }

    long peakDirect() {
        sample();
        return peakDirect.get();
    }

    @Override
    public void close() {
        running = false;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            try {
                ((NotificationEmitter) gc).removeNotificationListener(listener);
            } catch (javax.management.ListenerNotFoundException e) {
                // never added
            }
        }
    }
}
