package dev.sluice.limits.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The memory bound: a million distinct keys never make the table hold more than its cap. */
class BucketTableTest {

    private static final int KEYS = 1_000_000;
    private static final int CAP = 10_000;
    private static final long T0 = 5_000_000_000L;

    @Test
    void aMillionKeysAtOneInstantFillTheCapAndAreThenRefused() {
        // Time stands still, so every used bucket stays below full and nothing can be evicted.
        BucketTable<Integer> table = new BucketTable<>(10, 1, CAP);
        int admitted = 0;
        for (int key = 0; key < KEYS; key++) {
            TokenBucket bucket = table.bucketAt(key, T0);
            if (bucket != null) {
                assertThat(bucket.allowN(T0, 1)).isEqualTo(TokenBucket.ALLOWED);
                admitted++;
            }
            assertThat(table.size()).isLessThanOrEqualTo(CAP);
            assertThat(table.mappings()).isLessThanOrEqualTo(table.size());
        }
        assertThat(admitted).isEqualTo(CAP);
        assertThat(table.size()).isEqualTo(CAP);
        assertThat(table.bucketAt(0, T0)).as("a known key is still served").isNotNull();
        assertThat(table.bucketAt(KEYS, T0)).as("a new key is refused").isNull();
    }

    @Test
    void aMillionKeysOverTimeRecycleFullBucketsWithinTheCap() {
        // 1000/s with a burst of 1: a bucket is full again 1 ms after its use. One key per microsecond means the
        // 1000 most recent buckets are the only ones in use at any time, far below the cap.
        BucketTable<Integer> table = new BucketTable<>(1000, 1, CAP);
        int admitted = 0;
        int peak = 0;
        for (int key = 0; key < KEYS; key++) {
            long now = T0 + key * 1_000L;
            TokenBucket bucket = table.bucketAt(key, now);
            if (bucket != null && bucket.allowN(now, 1) == TokenBucket.ALLOWED) {
                admitted++;
            }
            peak = Math.max(peak, table.size());
            assertThat(table.mappings()).isLessThanOrEqualTo(table.size());
        }
        assertThat(peak).isLessThanOrEqualTo(CAP);
        assertThat(admitted).as("every key got its token").isEqualTo(KEYS);
        // Everything is full a millisecond after the last use: a full sweep empties the table.
        long later = T0 + KEYS * 1_000L + 1_000_000L;
        int held = table.size();
        assertThat(held).isPositive();
        assertThat(table.evictIdle(later)).isEqualTo(held);
        assertThat(table.size()).isZero();
        assertThat(table.mappings()).isZero();
    }

    @Test
    void aRetiredBucketIsReplacedByAFreshOne() {
        BucketTable<String> table = new BucketTable<>(10, 2, 4);
        TokenBucket first = table.bucketAt("a", T0);
        assertThat(first.retireIfFull(T0)).isTrue();
        assertThat(first.allowN(T0, 1)).isEqualTo(TokenBucket.RETIRED);
        assertThat(first.reserveN(T0, 1, 0, () -> T0)).isNull();
        TokenBucket second = table.bucketAt("a", T0);
        assertThat(second).isNotSameAs(first);
        assertThat(second.tokensAt(T0)).isEqualTo(2.0);
        assertThat(table.size()).isEqualTo(1);
    }

    @Test
    void rejectsAZeroCap() {
        assertThatThrownBy(() -> new BucketTable<>(1, 1, 0)).hasMessage("maxKeys < 1: 0");
    }
}
