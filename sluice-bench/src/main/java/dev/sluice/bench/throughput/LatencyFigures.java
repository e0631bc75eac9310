package dev.sluice.bench.throughput;

import java.util.HashMap;
import java.util.Map;

/** A paced client's response times, in microseconds, as its {@code latency} line reports them. */
record LatencyFigures(long count, double p50, double p99, double p999, double max) {

    /**
     * Parses {@code latency count=N p50=X p99=X p999=X max=X}.
     *
     * @throws IllegalArgumentException if a field is missing or malformed
     */
    static LatencyFigures parse(String line) {
        Map<String, String> fields = new HashMap<>();
        for (String part : line.trim().split("\\s+")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                fields.put(part.substring(0, eq), part.substring(eq + 1));
            }
        }
        try {
            return new LatencyFigures(Long.parseLong(field(fields, "count", line)),
                Double.parseDouble(field(fields, "p50", line)), Double.parseDouble(field(fields, "p99", line)),
                Double.parseDouble(field(fields, "p999", line)), Double.parseDouble(field(fields, "max", line)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("malformed latency line '" + line + "': " + e.getMessage());
        }
    }

    private static String field(Map<String, String> fields, String name, String line) {
        String v = fields.get(name);
        if (v == null) {
            throw new IllegalArgumentException("latency line without " + name + ": '" + line + "'");
        }
        return v;
    }
}
