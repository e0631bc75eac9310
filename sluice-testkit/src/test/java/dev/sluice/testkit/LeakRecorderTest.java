package dev.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The gate must be able to fail: a buffer dropped without release is reported. */
class LeakRecorderTest {

    @Test
    void reportsABufferThatWasNeverReleased() {
        assertThat(LeakRecorder.installed()).as("installed by the launcher session listener").isTrue();
        LeakRecorder.drain();
        leakOne();
        List<String> reports = List.of();
        for (int i = 0; i < 10 && reports.isEmpty(); i++) {
            LeakRecorder.collectAndPoll();
            reports = LeakRecorder.drain();
        }
        // Drained here so that this deliberate leak does not fail the class through the extension.
        assertThat(reports).isNotEmpty();
        assertThat(reports.get(0)).contains("LEAK").contains("leakOne");
    }

    @Test
    void reportsNothingWhenEverythingIsReleased() {
        LeakRecorder.drain();
        ByteBuf b = PooledByteBufAllocator.DEFAULT.directBuffer(64);
        b.writeLong(1);
        b.release();
        LeakRecorder.collectAndPoll();
        assertThat(LeakRecorder.drain()).isEmpty();
    }

    private static void leakOne() {
        ByteBuf b = PooledByteBufAllocator.DEFAULT.directBuffer(64);
        b.writeLong(42);
        b.touch("leakOne");
    }
}
