package dev.sluice.limits.internal;

import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * One token bucket per key, at most {@code maxKeys} of them.
 *
 * <p>Memory is bounded by forgetting buckets that are full: a full bucket behaves from then on exactly as the fresh
 * one its key gets on next use, so forgetting it changes no decision (for times that do not go backwards). A
 * bucket is retired with a compare-and-set on its state (see {@link TokenBucket#retireIfFull}), so a caller racing
 * with the eviction either takes its tokens first (and the bucket, no longer full, stays) or finds it retired and
 * looks the key up again.
 *
 * <p>The work is bounded per call: a sweep cursor walks the table a few entries at each new key, and further when
 * the table is full. When the table is full and no bucket in reach is full, a new key is refused ({@code null}):
 * evicting a bucket that is not full would hand its key a fresh burst, so a client cycling through keys could
 * multiply any other client's rate; refusing the newcomer keeps every key within its limit and memory within the
 * cap. Keys already in the table are served as usual.
 *
 * <p>Not part of the API. Thread-safe. Keys follow {@code equals}/{@code hashCode} and are not null.
 */
public final class BucketTable<K> {

    /** Entries the cursor inspects at each new key: keeps the table close to the keys in use at little cost. */
    static final int SWEEP_ON_INSERT = 2;
    /** Entries the cursor inspects for room when the table is full, before the new key is refused. */
    static final int SWEEP_ON_FULL = 64;

    @SuppressWarnings("rawtypes") // a field updater is made for the raw class
    private static final AtomicIntegerFieldUpdater<BucketTable> SWEEPING =
            AtomicIntegerFieldUpdater.newUpdater(BucketTable.class, "sweeping");

    /** Shared by every bucket: its refill threshold is computed once, not per key. */
    private final BucketConfig config;
    private final int maxKeys;
    private final ConcurrentHashMap<K, TokenBucket> buckets = new ConcurrentHashMap<>();
    /** Buckets in the table, counted before they go in and after they leave: never more than maxKeys. */
    private final AtomicInteger size = new AtomicInteger();
    private volatile int sweeping;
    /** The sweep position; used only by the thread that set {@link #sweeping}. */
    private Iterator<Map.Entry<K, TokenBucket>> cursor;

    /**
     * @throws IllegalArgumentException if {@code limit} is negative or NaN, {@code burst < 0}, or
     *     {@code maxKeys < 1}
     */
    public BucketTable(double limit, int burst, int maxKeys) {
        if (maxKeys < 1) {
            throw new IllegalArgumentException("maxKeys < 1: " + maxKeys);
        }
        this.config = new BucketConfig(RateMath.checkLimit(limit), RateMath.checkBurst(burst));
        this.maxKeys = maxKeys;
    }

    public double limit() {
        return config.limit;
    }

    public int burst() {
        return config.burst;
    }

    public int maxKeys() {
        return maxKeys;
    }

    /** The buckets held now: at most {@link #maxKeys()}. */
    public int size() {
        return size.get();
    }

    /** The mappings in the underlying map, for tests: at most {@link #size()}. */
    int mappings() {
        return buckets.size();
    }

    /** The bucket of {@code key} if the table holds one, retired or not; does not create one. */
    public TokenBucket peek(K key) {
        return buckets.get(key);
    }

    /**
     * The live bucket of {@code key} at {@code now}, created full if the key has none, or {@code null} if the key
     * is new and the table is full of buckets that are not.
     */
    public TokenBucket bucketAt(K key, long now) {
        // Each pass either returns or unlinks a retired bucket or loses a putIfAbsent race to a newer one.
        for (;;) {
            TokenBucket bucket = buckets.get(key);
            if (bucket != null) {
                if (!bucket.retired()) {
                    return bucket;
                }
                unlink(key, bucket);
                continue;
            }
            if (reserveSlot()) {
                sweep(now, SWEEP_ON_INSERT);
            } else {
                sweep(now, SWEEP_ON_FULL);
                if (!reserveSlot()) {
                    return null;
                }
            }
            TokenBucket fresh = new TokenBucket(config);
            TokenBucket raced = buckets.putIfAbsent(key, fresh);
            if (raced == null) {
                return fresh;
            }
            size.decrementAndGet();
        }
    }

    /** Forgets {@code bucket} of {@code key} if it is still the key's: one caller wins and returns its slot. */
    public void unlink(K key, TokenBucket bucket) {
        if (buckets.remove(key, bucket)) {
            size.decrementAndGet();
        }
    }

    /** Evicts every bucket that is full at {@code now}; returns how many. Runs unless a sweep is under way. */
    public int evictIdle(long now) {
        if (!SWEEPING.compareAndSet(this, 0, 1)) {
            return 0;
        }
        try {
            int evicted = 0;
            for (Map.Entry<K, TokenBucket> e : buckets.entrySet()) {
                evicted += evict(e, now);
            }
            return evicted;
        } finally {
            sweeping = 0;
        }
    }

    private boolean reserveSlot() {
        for (;;) {
            int n = size.get();
            if (n >= maxKeys) {
                return false;
            }
            if (size.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    /** Moves the cursor over up to {@code budget} entries, evicting the full ones; skipped if one is under way. */
    private void sweep(long now, int budget) {
        if (!SWEEPING.compareAndSet(this, 0, 1)) {
            return;
        }
        try {
            Iterator<Map.Entry<K, TokenBucket>> it = cursor;
            for (int i = 0; i < budget; i++) {
                if (it == null || !it.hasNext()) {
                    it = buckets.entrySet().iterator();
                    if (!it.hasNext()) {
                        break;
                    }
                }
                evict(it.next(), now);
            }
            cursor = it;
        } finally {
            sweeping = 0;
        }
    }

    private int evict(Map.Entry<K, TokenBucket> e, long now) {
        TokenBucket bucket = e.getValue();
        if (bucket.retireIfFull(now) && buckets.remove(e.getKey(), bucket)) {
            size.decrementAndGet();
            return 1;
        }
        return 0;
    }
}
