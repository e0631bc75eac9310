package dev.sluice.cli.report.internal;

import java.util.Locale;

/** Escaping and number formatting for the report's HTML and SVG. Stateless. */
public final class Html {

    private Html() {
    }

    /** {@code text} safe inside an element or a double-quoted attribute. */
    public static String escape(String text) {
        StringBuilder b = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    /** The run's date, version, command line and machine, as a definition list under the report's title. */
    public static String provenance(java.time.Instant date, String version, String commandLine, String machine) {
        return "<dl class=\"run\">\n<dt>date</dt><dd>" + escape(date.toString()) + "</dd>\n<dt>version</dt><dd>sluice "
            + escape(version) + "</dd>\n<dt>command</dt><dd><code>" + escape(commandLine) + "</code></dd>\n"
            + "<dt>machine</dt><dd>" + escape(machine) + "</dd>\n</dl>\n";
    }

    /** A coordinate: at most one decimal, no trailing ".0" (keeps the SVG small and diff-friendly). */
    public static String coordinate(double v) {
        long tenths = Math.round(v * 10);
        return tenths % 10 == 0 ? Long.toString(tenths / 10) : String.format(Locale.ROOT, "%.1f", tenths / 10.0);
    }

    /** A rate with one decimal: {@code 300.0}. */
    public static String rate(double perSecond) {
        return String.format(Locale.ROOT, "%.1f", perSecond);
    }
}
