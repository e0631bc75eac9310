package dev.sluice.limits.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class WideTimeTest {

    private static final long[] EDGES = {
        0, 1, -1, 2, -2, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE - 1, Long.MIN_VALUE + 1,
        1L << 62, -(1L << 62), 1_000_000_000L, -1_000_000_000L,
    };

    private static BigInteger wide(long hi, long lo) {
        return BigInteger.valueOf(hi).shiftLeft(64).add(new BigInteger(Long.toUnsignedString(lo)));
    }

    private static long saturate(BigInteger v) {
        if (v.compareTo(BigInteger.valueOf(Long.MAX_VALUE)) > 0) {
            return Long.MAX_VALUE;
        }
        if (v.compareTo(BigInteger.valueOf(Long.MIN_VALUE)) < 0) {
            return Long.MIN_VALUE;
        }
        return v.longValueExact();
    }

    /** Checks (t + d1) + d2, compared and subtracted, against exact big-integer arithmetic. */
    private static void check(long t, long d1, long d2, long u) {
        long aHi = WideTime.addHi(WideTime.hi(t), t, d1);
        long aLo = WideTime.addLo(t, d1);
        BigInteger a = BigInteger.valueOf(t).add(BigInteger.valueOf(d1));
        assertThat(wide(aHi, aLo)).as("%d + %d", t, d1).isEqualTo(a);
        long bHi = WideTime.addHi(aHi, aLo, d2);
        long bLo = WideTime.addLo(aLo, d2);
        BigInteger b = a.add(BigInteger.valueOf(d2));
        assertThat(wide(bHi, bLo)).as("%d + %d + %d", t, d1, d2).isEqualTo(b);
        BigInteger bu = BigInteger.valueOf(u);
        assertThat(Integer.signum(WideTime.compare(bHi, bLo, WideTime.hi(u), u))).isEqualTo(b.compareTo(bu));
        assertThat(WideTime.sub(bHi, bLo, WideTime.hi(u), u)).isEqualTo(saturate(b.subtract(bu)));
        assertThat(WideTime.sub(WideTime.hi(u), u, bHi, bLo)).isEqualTo(saturate(bu.subtract(b)));
        assertThat(WideTime.sub(bHi, bLo, aHi, aLo)).isEqualTo(saturate(b.subtract(a)));
        // Go's zero time lies below every instant built here, and subtracting from it cannot wrap.
        assertThat(WideTime.compare(WideTime.NEVER_HI, WideTime.NEVER_LO, bHi, bLo)).isNegative();
        assertThat(WideTime.sub(WideTime.NEVER_HI, WideTime.NEVER_LO, bHi, bLo)).isEqualTo(Long.MIN_VALUE);
        assertThat(WideTime.sub(bHi, bLo, WideTime.NEVER_HI, WideTime.NEVER_LO)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void edgeValuesMatchExactArithmetic() {
        for (long t : EDGES) {
            for (long d1 : EDGES) {
                for (long d2 : EDGES) {
                    check(t, d1, d2, d1 ^ d2);
                    check(t, d1, d2, t);
                }
            }
        }
    }

    @Test
    void randomValuesMatchExactArithmetic() {
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 100_000; i++) {
            check(random.nextLong(), random.nextLong(), random.nextLong(), random.nextLong());
        }
    }
}
