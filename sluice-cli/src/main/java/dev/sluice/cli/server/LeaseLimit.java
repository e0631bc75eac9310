package dev.sluice.cli.server;

import dev.sluice.limits.adaptive.AimdLimit;
import dev.sluice.limits.adaptive.CubicLimit;
import dev.sluice.limits.adaptive.Gradient2Limit;
import dev.sluice.limits.adaptive.Limit;
import dev.sluice.limits.adaptive.VegasLimit;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Locale;
import picocli.CommandLine;

/**
 * The limit algorithms {@code sluice server --lease adaptive} can size its leases with ({@code --lease-limit}), each
 * built as a server of unknown speed needs it. AIMD, Vegas and Gradient2 estimate requests in flight, from
 * {@value #INITIAL}, allowed down to {@value #MIN} (a service that is slow at any concurrency, like the demo's,
 * still gets a lease) and up to the algorithm's own maximum; leases follow by Little's law. CUBIC moves requests per
 * second directly ({@link dev.sluice.core.RateLeases}), from 10 per second, within a target latency given or
 * estimated.
 */
public enum LeaseLimit {

    AIMD {
        @Override
        Limit create() {
            return AimdLimit.builder().initialLimit(INITIAL).minLimit(MIN).build();
        }
    },
    VEGAS {
        @Override
        Limit create() {
            return VegasLimit.builder().initialLimit(INITIAL).minLimit(MIN).build();
        }
    },
    GRADIENT2 {
        @Override
        Limit create() {
            return Gradient2Limit.builder().initialLimit(INITIAL).minLimit(MIN).build();
        }
    },
    CUBIC {
        @Override
        Limit create() {
            return CubicLimit.builder().build();
        }

        @Override
        boolean perSecond() {
            return true;
        }
    };

    /** Where every limit starts: a few requests in flight, grown from there by the samples. */
    static final int INITIAL = 4;
    /** The least a limit may fall to. */
    static final int MIN = 1;

    /** A new limit of this algorithm: one per connection, fed on its event loop. */
    abstract Limit create();

    /** Whether the limit counts requests per second (a rate lease sender) rather than requests in flight. */
    boolean perSecond() {
        return false;
    }

    /** The option's spelling: {@code aimd}, {@code vegas}, {@code gradient2}, {@code cubic}. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Reads {@code --lease-limit}, in any case. */
    public static final class Converter implements CommandLine.ITypeConverter<LeaseLimit> {
        @Override
        public LeaseLimit convert(String value) {
            for (LeaseLimit l : values()) {
                if (l.toString().equalsIgnoreCase(value.trim())) {
                    return l;
                }
            }
            throw new CommandLine.TypeConversionException("expected aimd, vegas, gradient2 or cubic, got '" + value
                + "'");
        }
    }

    /** The values, as written on the command line. */
    public static final class Candidates implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(values()).map(LeaseLimit::toString).iterator();
        }
    }
}
