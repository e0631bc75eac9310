package dev.sluice.bench.throughput.internal;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Whole-number options of the benchmark command lines: picocli converts them (underscores allowed, {@code 1_000});
 * this checks each one's range with a message that quotes the option and the value. Stateless.
 */
public final class WholeNumbers {

    private WholeNumbers() {
    }

    /** Converts {@code 1_000} as {@code 1000}: the drivers' long figures read better with separators. */
    public static final class Converter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                return Long.parseLong(value.replace("_", ""));
            } catch (NumberFormatException e) {
                throw new CommandLine.TypeConversionException("must be a whole number, got '" + value + "'");
            }
        }
    }

    /** {@code value} as an int, if it lies in {@code [min, max]}; a usage error naming {@code option} otherwise. */
    public static int inRange(CommandSpec spec, String option, long value, long min, long max) {
        return (int) longInRange(spec, option, value, min, max);
    }

    /** {@code value}, if it lies in {@code [min, max]}; a usage error naming {@code option} otherwise. */
    public static long longInRange(CommandSpec spec, String option, long value, long min, long max) {
        if (value < min || value > max) {
            throw new ParameterException(spec.commandLine(), option + " must be in [" + min + ", " + max + "], got "
                + value);
        }
        return value;
    }
}
