package dev.sluice.cli.report.internal;

/**
 * The report's series colours: distinct for common colour-vision deficiencies in hue and lightness, and checked by
 * {@code scripts/check-report-renders.sh}, which looks for them in a screenshot.
 */
public final class Palette {

    /** Responses (accepted requests): green. */
    public static final String ACCEPTED = "#2f9e44";
    /** Rejections: red. */
    public static final String REJECTED = "#e03131";
    /** Failures: grey. */
    public static final String FAILED = "#868e96";
    /** Median latency: blue. */
    public static final String P50 = "#1c7ed6";
    /** 99th percentile latency: orange. */
    public static final String P99 = "#f08c00";
    /** A run without the rate limiter, when two runs are compared: dark orange. */
    public static final String UNLIMITED = "#e8590c";
    /** A run with the rate limiter, when two runs are compared: dark blue. */
    public static final String LIMITED = "#1971c2";
    /** Requests that timed out: purple. */
    public static final String TIMED_OUT = "#9c36b5";

    /** Servers, one line each: blue, orange, green, purple, then again. */
    private static final String[] SERVERS = {P50, P99, ACCEPTED, TIMED_OUT};

    private Palette() {
    }

    /** The colour of the {@code index}-th server's line. */
    public static String server(int index) {
        return SERVERS[index % SERVERS.length];
    }
}
