package dev.sluice.files.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GreedDemandTest {

    private static final int K8 = 8 * 1024;

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
        # columns: what | min | initial | max | maxBytes | outstanding | queued | held | largest | n | window
        # Nothing outstanding, nothing queued: the writer starves, so the window doubles and is filled.
        starving writer doubles the window      | 2 | 4  | 64 | 1048576  | 0 | 0 | 0     | 8192 | 8  | 8
        # Room for a quarter of the window (1 of 4) is a top-up point; nothing queued: grow and refill to 8.
        quarter of the window free tops up      | 2 | 4  | 64 | 1048576  | 3 | 0 | 0     | 8192 | 5  | 8
        # Room for 1 of 8 is less than a quarter (2): no request and no adaptation.
        below a quarter free: no request        | 2 | 8  | 64 | 1048576  | 7 | 0 | 0     | 8192 | 0  | 8
        # Backlog of 5 > 8/2: halve; 6 outstanding already exceed the new window of 4, so nothing is requested.
        backlog over half halves the window     | 2 | 8  | 64 | 1048576  | 6 | 5 | 40960 | 8192 | 0  | 4
        # Backlog of exactly half: keep the window, refill to it.
        backlog of half keeps the window        | 2 | 8  | 64 | 1048576  | 6 | 4 | 32768 | 8192 | 2  | 8
        # Growth stops at the maximum.
        growth is capped at maxItems            | 2 | 64 | 64 | 99999999 | 0 | 0 | 0     | 1    | 64 | 64
        # Shrinking stops at the minimum: 2 queued > 3/2 would halve 3 to 1, but the floor is 3.
        shrinking stops at minItems             | 3 | 3  | 8  | 1048576  | 2 | 2 | 16384 | 8192 | 1  | 3
        # Byte cap: the window grows to 16 but 80 KiB hold only ten 8 KiB items.
        byte cap limits the request             | 2 | 8  | 64 | 81920    | 0 | 0 | 0     | 8192 | 10 | 16
        # Pending items are budgeted at the largest size: 80K - 16K held - 6 x 8K pending leaves room for 2.
        pending items count at the largest size | 2 | 16 | 64 | 81920    | 8 | 2 | 16384 | 8192 | 2  | 16
        # An item larger than the byte cap is still requested, alone, when nothing is outstanding.
        oversized item alone when idle          | 2 | 4  | 64 | 1024     | 0 | 0 | 0     | 8192 | 1  | 8
        # ... but not next to another one.
        oversized item not next to another      | 2 | 4  | 64 | 1024     | 1 | 1 | 8192  | 8192 | 0  | 4
        # Zero-byte items are budgeted as one byte each.
        zero-byte items count as one byte       | 2 | 4  | 64 | 1048576  | 0 | 0 | 0     | 0    | 8  | 8
        """)
    void onWrittenRows(String what, int min, int init, int max, long maxBytes, long outstanding, long queued,
            long held, int largest, long expectedN, int expectedWindow) {
        GreedDemand d = new GreedDemand(min, init, max, maxBytes);

        long n = d.onWritten(outstanding, queued, held, largest);

        assertThat(n).as(what + ": request").isEqualTo(expectedN);
        assertThat(d.window()).as(what + ": window").isEqualTo(expectedWindow);
    }

    @Test
    void firstRequestIsOneItemToLearnTheSize() {
        assertThat(new GreedDemand(2, 4, 64, 1).initial()).isEqualTo(1);
    }

    @Test
    void aStarvingWriterGrowsTheWindowToTheCapOneTopUpAtATime() {
        GreedDemand d = new GreedDemand(2, 4, 64, Long.MAX_VALUE);
        // Each row: the writer has just written the only item it had and is waiting again (nothing queued), with
        // the rest of the window still pending at the source.
        int[] windows = new int[7];
        long outstanding = 0;
        for (int i = 0; i < windows.length; i++) {
            outstanding += d.onWritten(outstanding, 0, 0, K8);
            assertThat(outstanding).isEqualTo(d.window());
            windows[i] = d.window();
            outstanding -= d.window() >> 2; // a quarter of the window gets written before the next top-up point
        }
        assertThat(windows).containsExactly(8, 16, 32, 64, 64, 64, 64);
    }

    @Test
    void aFloodShrinksTheWindowToTheMinimum() {
        GreedDemand d = new GreedDemand(2, 64, 64, Long.MAX_VALUE);
        // The source delivers everything at once: everything outstanding is queued. Write one at a time.
        long outstanding = 64;
        for (int i = 0; i < 200; i++) {
            outstanding--;
            outstanding += d.onWritten(outstanding, outstanding, outstanding * K8, K8);
            assertThat(outstanding).isLessThanOrEqualTo(64);
        }
        assertThat(d.window()).isEqualTo(2);
        assertThat(outstanding).isLessThanOrEqualTo(2);
    }

    /**
     * Simulates a writer against a source of random speed with fixed-size items, and checks the caps after every
     * step: the window within its bounds, outstanding items within the maximum (and within the window right after
     * a request), outstanding bytes within the byte cap.
     */
    @Test
    void capsHoldUnderRandomArrivals() {
        SplittableRandom random = new SplittableRandom(42);
        for (int round = 0; round < 50; round++) {
            int min = 1 + random.nextInt(4);
            int max = min + random.nextInt(100);
            int init = min + random.nextInt(max - min + 1);
            int size = 1 + random.nextInt(64 * 1024);
            long maxBytes = size * (long) (1 + random.nextInt(200));
            GreedDemand d = new GreedDemand(min, init, max, maxBytes);
            long pending = d.initial();
            long queued = 0;
            for (int step = 0; step < 2_000; step++) {
                long arriving = pending == 0 ? 0 : random.nextLong(pending + 1);
                pending -= arriving;
                queued += arriving;
                if (queued == 0) {
                    continue;
                }
                queued--; // one write completes
                long n = d.onWritten(pending + queued, queued, queued * size, size);
                pending += n;
                long outstanding = pending + queued;
                assertThat(d.window()).isBetween(min, max);
                // A shrink cannot take back what is outstanding, so only a fresh request is held to the window.
                assertThat(outstanding).isLessThanOrEqualTo(max);
                if (n > 0) {
                    assertThat(outstanding).isLessThanOrEqualTo(d.window());
                }
                assertThat(outstanding * size).isLessThanOrEqualTo(Math.max(maxBytes, size));
            }
        }
    }

    @Test
    void rejectsInconsistentBounds() {
        assertThatThrownBy(() -> new GreedDemand(0, 4, 64, 1)).hasMessage("minItems < 1: 0");
        assertThatThrownBy(() -> new GreedDemand(4, 2, 64, 1)).hasMessage("initialItems < minItems: 2 < 4");
        assertThatThrownBy(() -> new GreedDemand(2, 8, 4, 1)).hasMessage("maxItems < initialItems: 4 < 8");
        assertThatThrownBy(() -> new GreedDemand(2, 4, 64, 0)).hasMessage("maxBytes < 1: 0");
    }
}
