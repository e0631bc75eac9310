package dev.sluice.cli;

import dev.sluice.core.Payload;
import dev.sluice.core.RateLimitGate;
import dev.sluice.core.RequestGate;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.frame.metadata.CompositeMetadataCursor;
import dev.sluice.limits.KeyedRateLimiter;
import dev.sluice.limits.RateLimiter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Function;
import picocli.CommandLine.Option;

/**
 * The rate-limit options shared by {@code sluice server} and {@code sluice proxy}: a token bucket applied to
 * incoming requests before they reach the service (over it: ERROR[REJECTED] {@code rate_limited}).
 */
public final class RateLimitOptions {

    @Option(names = "--rate-limit", description = "token-bucket rate for incoming requests, e.g. 425/s (or 100/ms,"
        + " 6000/m); default: no limit")
    String rate;

    @Option(names = "--burst", defaultValue = "10", description = "bucket size: requests allowed at once"
        + " (default: ${DEFAULT-VALUE})")
    int burst;

    @Option(names = "--max-wait", defaultValue = "0ms", converter = DurationConverter.class,
        description = "how long a request may wait for its token; one that cannot get it in time is refused at once"
            + " (default: ${DEFAULT-VALUE})")
    Duration maxWait;

    @Option(names = "--rate-limit-key", defaultValue = "global",
        description = "one bucket for all requests (global), one per client (remote-address), or one per value of"
            + " the composite-metadata entry with MIME type NAME (metadata:NAME) (default: ${DEFAULT-VALUE})")
    String key;

    /** Whether a limit was asked for. */
    public boolean enabled() {
        return rate != null;
    }

    /** {@code acceptor} behind the configured limit (unchanged when none). */
    public SocketAcceptor protect(SocketAcceptor acceptor) {
        if (!enabled()) {
            return acceptor;
        }
        double perSecond = parseRate(rate);
        if (burst < 1) {
            throw new IllegalArgumentException("--burst must be >= 1, got " + burst);
        }
        if (maxWait.isNegative()) {
            throw new IllegalArgumentException("--max-wait must be >= 0, got " + maxWait);
        }
        if (key.equals("global")) {
            RateLimiter limiter = RateLimiter.create(perSecond, burst);
            RateLimitGate gate = RateLimitGate.of(limiter, maxWait);
            return RequestGate.protect(acceptor, c -> gate);
        }
        KeyedRateLimiter<String> limiter = KeyedRateLimiter.<String>builder(perSecond, burst).build();
        if (key.equals("remote-address")) {
            return RequestGate.protect(acceptor, c -> {
                String address = String.valueOf(c.remoteAddress());
                int slash = address.indexOf('/');
                String client = address.substring(slash + 1, address.lastIndexOf(':'));
                return RateLimitGate.of(limiter, p -> client, maxWait);
            });
        }
        if (key.startsWith("metadata:") && key.length() > "metadata:".length()) {
            String mime = key.substring("metadata:".length());
            RateLimitGate gate = RateLimitGate.of(limiter, metadataValue(mime), maxWait);
            return RequestGate.protect(acceptor, c -> gate);
        }
        throw new IllegalArgumentException("--rate-limit-key must be global, remote-address or metadata:NAME, got '"
            + key + "'");
    }

    /** Parses {@code 425/s}, {@code 100/ms}, {@code 6000/m} or a plain number (per second). */
    static double parseRate(String text) {
        String t = text.trim();
        int slash = t.indexOf('/');
        String number = slash < 0 ? t : t.substring(0, slash);
        String unit = slash < 0 ? "s" : t.substring(slash + 1);
        double n;
        try {
            n = Double.parseDouble(number);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--rate-limit must look like 425/s, got '" + text + "'");
        }
        double perSecond = switch (unit) {
            case "s" -> n;
            case "ms" -> n * 1000;
            case "m" -> n / 60;
            case "h" -> n / 3600;
            default -> throw new IllegalArgumentException("--rate-limit unit must be /s, /ms, /m or /h, got '"
                + text + "'");
        };
        if (!(perSecond > 0) || Double.isInfinite(perSecond)) {
            throw new IllegalArgumentException("--rate-limit must be > 0, got '" + text + "'");
        }
        return perSecond;
    }

    /** The UTF-8 value of the composite-metadata entry of MIME type {@code mime}; "" when absent or malformed. */
    private static Function<Payload, String> metadataValue(String mime) {
        return p -> {
            if (!p.hasMetadata()) {
                return "";
            }
            try {
                CompositeMetadataCursor c = new CompositeMetadataCursor()
                    .wrap(p.metadata(), p.metadata().readerIndex(), p.metadata().readableBytes());
                while (c.next()) {
                    if (c.mimeTypeEquals(mime)) {
                        return p.metadata().toString(c.contentIndex(), c.contentLength(), StandardCharsets.UTF_8);
                    }
                }
            } catch (RuntimeException malformed) {
                return "";
            }
            return "";
        };
    }
}
