package dev.sluice.cli;

import dev.sluice.limits.redis.FailurePolicy;
import java.util.Iterator;
import java.util.List;
import picocli.CommandLine;

/** Parses {@code --redis-failure}: {@code open} ({@link FailurePolicy#FAIL_OPEN}) or {@code closed}. */
public final class FailurePolicyConverter implements CommandLine.ITypeConverter<FailurePolicy> {

    /** The values, as written on the command line. */
    public static final class Candidates implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return List.of("open", "closed").iterator();
        }
    }

    /** How {@code policy} is written on the command line. */
    public static String name(FailurePolicy policy) {
        return policy == FailurePolicy.FAIL_OPEN ? "open" : "closed";
    }

    @Override
    public FailurePolicy convert(String value) {
        return switch (value.trim()) {
            case "open" -> FailurePolicy.FAIL_OPEN;
            case "closed" -> FailurePolicy.FAIL_CLOSED;
            default -> throw new CommandLine.TypeConversionException("expected open or closed, got '" + value
                + "'");
        };
    }
}
