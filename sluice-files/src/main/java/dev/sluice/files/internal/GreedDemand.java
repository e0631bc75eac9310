package dev.sluice.files.internal;

/**
 * Decides how many items a file writer requests from its source: the "greed" controller of rio (double the
 * request window while the writer keeps up, halve it while a backlog builds), but topped up from <em>completed
 * writes</em> and capped both in items and in bytes, so that a source faster than the disk can never make the
 * writer hold more than the caps.
 *
 * <h2>The algorithm</h2>
 * An item is <em>outstanding</em> from the moment it is requested until it has been written: it is either pending
 * at the source or queued at the writer. The window {@code w} (between {@code minItems} and {@code maxItems}) bounds
 * the outstanding items. After each completed write the writer calls {@link #onWritten} (once for a gathering write
 * that completed several items together, with the new totals); when the window has room for a quarter of itself (or
 * nothing is outstanding at all) that is a <em>top-up point</em>, where the window adapts to the backlog the writer
 * sees:
 * <ul>
 *   <li>nothing queued: the writer is waiting for data, so the source is the bottleneck: double {@code w};</li>
 *   <li>more than {@code w / 2} queued: the disk is the bottleneck and a longer queue only costs memory: halve
 *   {@code w};</li>
 *   <li>otherwise keep {@code w}.</li>
 * </ul>
 * It then asks for enough items to bring the outstanding count back to {@code w}, but no more than fit in the byte
 * budget if each pending item were as large as the largest seen so far. Adapting only at top-up points (about four
 * times per window) rather than at every write keeps one backlog from being counted again and again.
 *
 * <h2>Edge values</h2>
 * The first request is one item: its size then sizes the rest, so the byte cap holds from the start. When nothing is
 * outstanding the answer is at least one, whatever the byte budget says, so an item larger than the byte cap is
 * still written (alone). Held bytes stay within {@code maxBytes} as long as no item is larger than the largest one
 * seen before it was requested, and within {@code max(maxBytes, largest item)} for items that do not grow.
 *
 * <p>Not thread-safe: one instance belongs to one subscription and is used only by its drain loop.
 */
public final class GreedDemand {

    private final int minItems;
    private final int maxItems;
    private final long maxBytes;
    private int window;

    /**
     * A controller whose window starts at {@code initialItems}.
     *
     * @throws IllegalArgumentException unless {@code 1 <= minItems <= initialItems <= maxItems} and
     *     {@code maxBytes >= 1}
     */
    public GreedDemand(int minItems, int initialItems, int maxItems, long maxBytes) {
        if (minItems < 1) {
            throw new IllegalArgumentException("minItems < 1: " + minItems);
        }
        if (initialItems < minItems) {
            throw new IllegalArgumentException("initialItems < minItems: " + initialItems + " < " + minItems);
        }
        if (maxItems < initialItems) {
            throw new IllegalArgumentException("maxItems < initialItems: " + maxItems + " < " + initialItems);
        }
        if (maxBytes < 1) {
            throw new IllegalArgumentException("maxBytes < 1: " + maxBytes);
        }
        this.minItems = minItems;
        this.maxItems = maxItems;
        this.maxBytes = maxBytes;
        this.window = initialItems;
    }

    /** The current window: the most items that may be outstanding, in {@code [minItems, maxItems]}. */
    public int window() {
        return window;
    }

    /** The most items ever outstanding: the cap of the window. */
    public int maxItems() {
        return maxItems;
    }

    /** The cap on the bytes of the outstanding items (see the class comment for how pending items count). */
    public long maxBytes() {
        return maxBytes;
    }

    /** The first request, made before any item size is known: one item. */
    public long initial() {
        return 1;
    }

    /**
     * Called after each completed write; adapts the window at a top-up point and says how many more items to
     * request.
     *
     * @param outstanding items requested and not yet written (those just written no longer count), {@code >= 0}
     * @param queued items received and not yet written, {@code 0 <= queued <= outstanding}
     * @param heldBytes the bytes of the queued items, {@code >= 0}
     * @param largestItem the largest item seen so far, in bytes, {@code >= 0}
     * @return the number of items to request now, {@code 0} for none; never more than {@code window() -
     *     outstanding}, except that it is {@code 1} when nothing is outstanding
     */
    public long onWritten(long outstanding, long queued, long heldBytes, int largestItem) {
        long room = window - outstanding;
        if (outstanding > 0 && room < Math.max(1, window >> 2)) {
            return 0;
        }
        if (queued == 0) {
            window = (int) Math.min(maxItems, 2L * window);
        } else if (queued > window >> 1) {
            window = Math.max(minItems, window >> 1);
        }
        long n = window - outstanding;
        // Pending items have no size yet: budget each as the largest item seen (at least one byte).
        long size = Math.max(1, largestItem);
        long pending = outstanding - queued;
        long bytesRoom = maxBytes - heldBytes - pending * size;
        n = Math.min(n, Math.max(0, bytesRoom / size));
        if (outstanding == 0 && n < 1) {
            // Never stall: with nothing outstanding no write will complete to call us again.
            n = 1;
        }
        return Math.max(0, n);
    }
}
