package dev.sluice.core.internal.stream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testkit.Stderr;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** How many lines a flood of handler failures gets: a burst of ten, then one a second, saying what was left out. */
class HandlerFailureLogTest {

    private static final long MS = 1_000_000L;
    private static final String LOGGER = "HandlerFailureLogTest";
    private static final String LEFT_OUT_3 = "fire-and-forget handler failed on stream 27 (3 more handler failures"
        + " not logged since the previous line)";
    private static final String LEFT_OUT_1 = "metadata-push handler failed (1 more handler failure not logged since"
        + " the previous line)";

    @Test
    void aFloodIsLoggedInABurstThenOnceASecondCountingWhatWasLeftOut() {
        HandlerFailureLog failures = new HandlerFailureLog(LoggerFactory.getLogger(LOGGER));
        IllegalStateException error = new IllegalStateException("no route");
        Object[][] rows = {
            // time (ms), stream id, the line written (null: none)
            {0L, 1, "fire-and-forget handler failed on stream 1"},
            {0L, 3, "fire-and-forget handler failed on stream 3"},
            {0L, 5, "fire-and-forget handler failed on stream 5"},
            {0L, 7, "fire-and-forget handler failed on stream 7"},
            {0L, 9, "fire-and-forget handler failed on stream 9"},
            {0L, 11, "fire-and-forget handler failed on stream 11"},
            {0L, 13, "fire-and-forget handler failed on stream 13"},
            {0L, 15, "fire-and-forget handler failed on stream 15"},
            {0L, 17, "fire-and-forget handler failed on stream 17"},
            {0L, 19, "fire-and-forget handler failed on stream 19"}, // the burst of ten is spent
            {0L, 21, null},
            {500L, 23, null},
            {999L, 25, null},
            // A second after the burst: one line, which counts the three left out.
            {1000L, 27, LEFT_OUT_3},
            {1500L, 29, null},
            {2000L, 0, LEFT_OUT_1},
            // Quiet for ten seconds: the burst is back, and nothing was left out since the last line.
            {12_000L, 31, "fire-and-forget handler failed on stream 31"},
        };
        for (Object[] row : rows) {
            long nowNanos = (Long) row[0] * MS;
            int streamId = (Integer) row[1];
            String expected = (String) row[2];
            String err = Stderr.during(() -> {
                if (streamId == 0) {
                    failures.metadataPushFailed(nowNanos, error);
                } else {
                    failures.fireAndForgetFailed(nowNanos, streamId, error);
                }
            });
            if (expected == null) {
                assertThat(err).as("at %d ms, stream %d", row[0], streamId).doesNotContain(LOGGER);
            } else {
                assertThat(err).as("at %d ms, stream %d", row[0], streamId)
                    .contains("WARN " + LOGGER + " - " + expected + "\njava.lang.IllegalStateException: no route");
            }
        }
    }
}
