package dev.sluice.bench.throughput.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Command-line options of the form {@code --name value} (repeatable) and {@code --flag}, checked against the
 * names a program accepts. Not thread-safe; parse once in {@code main}.
 */
public final class Args {

    private final Map<String, List<String>> values = new LinkedHashMap<>();

    private Args() {
    }

    /**
     * Parses {@code args}.
     *
     * @param withValue names that take a value
     * @param flags     names that take none
     * @throws IllegalArgumentException on an unknown name, a missing value or a stray word
     */
    public static Args parse(String[] args, Set<String> withValue, Set<String> flags) {
        Args parsed = new Args();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument '" + a + "': options start with --");
            }
            String name = a.substring(2);
            String value;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            } else if (withValue.contains(name)) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("option --" + name + " needs a value");
                }
                value = args[++i];
            } else {
                value = "true";
            }
            if (!withValue.contains(name) && !flags.contains(name)) {
                throw new IllegalArgumentException("unknown option --" + name + "; known: --"
                    + String.join(", --", sorted(withValue, flags)));
            }
            parsed.values.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        }
        return parsed;
    }

    private static List<String> sorted(Set<String> a, Set<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        Collections.sort(all);
        return all;
    }

    /** Whether {@code name} was given. */
    public boolean has(String name) {
        return values.containsKey(name);
    }

    /** The last value given for {@code name}, or {@code fallback}. */
    public String string(String name, String fallback) {
        List<String> v = values.get(name);
        return v == null ? fallback : v.get(v.size() - 1);
    }

    /** Every value given for {@code name}, in order; empty when none. */
    public List<String> all(String name) {
        return values.getOrDefault(name, List.of());
    }

    /** The comma-separated values of {@code name} (all occurrences), or {@code fallback} when absent. */
    public List<String> list(String name, List<String> fallback) {
        if (!has(name)) {
            return fallback;
        }
        List<String> out = new ArrayList<>();
        for (String v : all(name)) {
            for (String part : v.split(",")) {
                if (!part.isBlank()) {
                    out.add(part.trim());
                }
            }
        }
        return out;
    }

    /** The value of {@code name} as a long in {@code [min, max]}, or {@code fallback}. */
    public long number(String name, long fallback, long min, long max) {
        String v = string(name, null);
        if (v == null) {
            return fallback;
        }
        long n;
        try {
            n = Long.parseLong(v.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " must be a whole number, got '" + v + "'");
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException("--" + name + " must be in [" + min + ", " + max + "], got " + n);
        }
        return n;
    }

    /** {@link #number} narrowed to an int. */
    public int integer(String name, int fallback, int min, int max) {
        return (int) number(name, fallback, min, max);
    }
}
