package dev.sluice.cli.files.internal;

import java.util.Locale;

/**
 * The text of a transfer's progress: the bar redrawn in a terminal, and the one line printed at the end.
 *
 * <pre>
 * [=========&gt;          ]  45%  460.2 MiB / 1.0 GiB  212.3 MiB/s  ETA 0:03   (total known)
 * 460.2 MiB  212.3 MiB/s  0:02                                            (total unknown: elapsed time)
 * </pre>
 * Sizes use binary units (KiB = 1024 B) with one decimal. Stateless and thread-safe.
 */
public final class ProgressLine {

    /** The bar's width between its brackets, in characters. */
    static final int BAR_WIDTH = 20;

    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

    private ProgressLine() {
    }

    /** The progress line for {@code meter} as of its last sample, at {@code nowNanos}. */
    public static String render(TransferMeter meter, long nowNanos) {
        long bytes = meter.bytes();
        long total = meter.total();
        double rate = meter.rate();
        String speed = rate < 0 ? "-- B/s" : rate(rate);
        if (total < 0) {
            return bytes(bytes) + "  " + speed + "  " + duration(meter.elapsedNanos(nowNanos));
        }
        int percent = total == 0 ? 100 : (int) Math.min(100, bytes * 100 / total);
        return bar(bytes, total) + String.format(Locale.ROOT, " %3d%%", percent) + "  " + bytes(bytes) + " / "
            + bytes(total) + "  " + speed + "  ETA " + duration(meter.etaNanos());
    }

    /**
     * The line printed when a transfer succeeded: what, how much, how long, how fast, and the verified checksum.
     */
    public static String summary(String what, Checksum checksum, long elapsedNanos) {
        double seconds = Math.max(elapsedNanos, 1) / 1e9;
        return String.format(Locale.ROOT, "%s: %d bytes (%s) in %.2f s, %s; sha256 %s verified", what,
            checksum.bytes(), bytes(checksum.bytes()), seconds, rate(checksum.bytes() / seconds), checksum.sha256());
    }

    /** {@code [=====>    ]}: the share of {@code total} that {@code bytes} is, {@value #BAR_WIDTH} wide. */
    static String bar(long bytes, long total) {
        int filled = total <= 0 ? BAR_WIDTH : (int) Math.min(BAR_WIDTH, (double) bytes * BAR_WIDTH / total);
        StringBuilder b = new StringBuilder(BAR_WIDTH + 2).append('[');
        for (int i = 0; i < BAR_WIDTH; i++) {
            b.append(i < filled ? '=' : i == filled ? '>' : ' ');
        }
        return b.append(']').toString();
    }

    /** {@code 512 B}, {@code 1.5 KiB}, {@code 460.2 MiB}. */
    static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        double v = n;
        int unit = 0;
        while (v >= 1024 && unit < UNITS.length - 1) {
            v /= 1024;
            unit++;
        }
        // 1023.96 KiB would print as "1024.0 KiB": carry it into the next unit.
        if (v >= 1023.95 && unit < UNITS.length - 1) {
            v /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, UNITS[unit]);
    }

    /** A rate in bytes per second, as {@code 212.3 MiB/s}. */
    static String rate(double bytesPerSecond) {
        return bytes((long) bytesPerSecond) + "/s";
    }

    /** {@code m:ss} or {@code h:mm:ss}; {@code --:--} for a negative (unknown) duration. */
    static String duration(long nanos) {
        if (nanos < 0) {
            return "--:--";
        }
        long s = (nanos + 500_000_000L) / 1_000_000_000L;
        long h = s / 3600;
        long m = s / 60 % 60;
        long sec = s % 60;
        return h > 0 ? String.format(Locale.ROOT, "%d:%02d:%02d", h, m, sec)
            : String.format(Locale.ROOT, "%d:%02d", m, sec);
    }
}
