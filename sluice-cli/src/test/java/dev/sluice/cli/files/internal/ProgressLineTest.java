package dev.sluice.cli.files.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProgressLineTest {

    private static final long S = 1_000_000_000L;
    private static final long MIB = 1024 * 1024;
    private static final String SHA = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    @Test
    void bytes() {
        Object[][] rows = {
            {0L, "0 B"},
            {1023L, "1023 B"},
            {1024L, "1.0 KiB"},
            {1536L, "1.5 KiB"},
            {MIB - 1, "1.0 MiB"},          // 1023.999 KiB: carried, not "1024.0 KiB"
            {10 * MIB + MIB / 4, "10.3 MiB"},
            {1024 * MIB, "1.0 GiB"},
            {Long.MAX_VALUE, "8.0 EiB"},
        };
        for (Object[] row : rows) {
            assertThat(ProgressLine.bytes((Long) row[0])).as("%s", row[0]).isEqualTo(row[1]);
        }
    }

    @Test
    void durations() {
        Object[][] rows = {
            {-1L, "--:--"},
            {0L, "0:00"},
            {59 * S + S / 2 - 1, "0:59"},
            {59 * S + S / 2, "1:00"},   // rounded to the nearest second
            {600 * S, "10:00"},
            {3661 * S, "1:01:01"},
        };
        for (Object[] row : rows) {
            assertThat(ProgressLine.duration((Long) row[0])).as("%s", row[0]).isEqualTo(row[1]);
        }
    }

    @Test
    void bars() {
        assertThat(ProgressLine.bar(0, 100)).isEqualTo("[>                   ]");
        assertThat(ProgressLine.bar(50, 100)).isEqualTo("[==========>         ]");
        assertThat(ProgressLine.bar(99, 100)).isEqualTo("[===================>]");
        assertThat(ProgressLine.bar(100, 100)).isEqualTo("[====================]");
        assertThat(ProgressLine.bar(200, 100)).isEqualTo("[====================]");
        assertThat(ProgressLine.bar(0, 0)).isEqualTo("[====================]");
    }

    @Test
    void theLineShowsShareSizesRateAndTimeLeft() {
        TransferMeter m = new TransferMeter(0);
        m.total(1024 * MIB);
        m.add(256 * MIB);
        m.sample(2 * S); // 128 MiB/s

        assertThat(ProgressLine.render(m, 2 * S))
            .isEqualTo("[=====>              ]  25%  256.0 MiB / 1.0 GiB  128.0 MiB/s  ETA 0:06");
    }

    @Test
    void withoutATotalTheLineShowsSizeRateAndElapsedTime() {
        TransferMeter m = new TransferMeter(0);
        m.add(3 * MIB);

        assertThat(ProgressLine.render(m, 2 * S)).as("before the first sample").isEqualTo("3.0 MiB  -- B/s  0:02");
        m.sample(3 * S);
        assertThat(ProgressLine.render(m, 3 * S)).isEqualTo("3.0 MiB  1.0 MiB/s  0:03");
    }

    @Test
    void theSummarySaysWhatHowMuchHowLongHowFastAndTheChecksum() {
        Checksum c = new Checksum(1024 * MIB, SHA);

        assertThat(ProgressLine.summary("uploaded a to b", c, 4 * S)).isEqualTo("uploaded a to b: 1073741824 bytes"
            + " (1.0 GiB) in 4.00 s, 256.0 MiB/s; sha256 " + SHA + " verified");
    }
}
