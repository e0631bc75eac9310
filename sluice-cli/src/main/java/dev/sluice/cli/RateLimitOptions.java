package dev.sluice.cli;

import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RateLimitGate;
import dev.sluice.core.RequestGate;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.frame.metadata.CompositeMetadataCursor;
import dev.sluice.limits.KeyedRateLimiter;
import dev.sluice.limits.RateLimiter;
import dev.sluice.limits.redis.FailurePolicy;
import dev.sluice.limits.redis.RedisRateLimitGate;
import dev.sluice.limits.redis.RedisRateLimiter;
import io.lettuce.core.RedisURI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Option;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The rate-limit options shared by {@code sluice server} and {@code sluice proxy}: a token bucket applied to
 * incoming requests before they reach the service (over it: ERROR[REJECTED] {@code rate_limited}), kept in this
 * process, or with {@code --redis} in Redis, where every process using that Redis shares it.
 *
 * <p>With {@code --redis}, Redis is asked once at startup. If it does not answer (after up to the connect timeout,
 * {@link RedisRateLimiter#DEFAULT_CONNECT_TIMEOUT}, plus {@code --redis-timeout}), {@code --redis-failure} decides
 * here as it will later: {@code closed} refuses to start ({@link IllegalStateException}, one line and exit code 1:
 * a server that would refuse every request is a configuration error to report now), {@code open} logs one warning
 * and starts (an outage of Redis must not become an outage of the service; the limit holds once Redis answers).
 *
 * <p>Not thread-safe: parsed and used once by the command that owns it, which {@link #close() closes} it when its
 * server stops.
 */
public final class RateLimitOptions implements AutoCloseable {

    /**
     * The one bucket of {@code --rate-limit-key global} (in Redis: after {@link RedisRateLimiter#DEFAULT_KEY_PREFIX};
     * the other kinds' buckets are {@code remote-address:IP} and {@code metadata:MIME:VALUE}).
     */
    static final String GLOBAL_KEY = "global";

    private static final Logger log = LoggerFactory.getLogger("sluice.redis");

    @Option(names = "--rate-limit", description = "token-bucket rate for incoming requests, e.g. 425/s (or 100/ms,"
        + " 6000/m, 20/h; a bare number is per second, and the startup line says so); default: no limit")
    String rate;

    @Option(names = "--burst", defaultValue = "10", description = "bucket size: requests allowed at once"
        + " (default: ${DEFAULT-VALUE})")
    int burst;

    @Option(names = "--max-wait", defaultValue = "0ms", converter = DurationConverter.class,
        description = "how long a request may wait for its token; one that cannot get it in time is refused at once"
            + " (default: ${DEFAULT-VALUE})")
    Duration maxWait;

    @Option(names = "--rate-limit-key", defaultValue = GLOBAL_KEY,
        description = "one bucket for all requests (global), one per client (remote-address), or one per value of"
            + " the composite-metadata entry with MIME type NAME (metadata:NAME) (default: ${DEFAULT-VALUE})")
    String key;

    @Option(names = "--redis", paramLabel = "URI", converter = RedisUriConverter.class,
        description = "keep the buckets in this Redis, e.g. redis://127.0.0.1:6379 (also rediss://,"
            + " redis://:password@host:port/db): every process using it with the same --rate-limit and --burst"
            + " shares the limit, one atomic script per request; default: buckets of this process only")
    RedisURI redis;

    @Option(names = "--redis-timeout", defaultValue = "50ms", converter = DurationConverter.class,
        description = "how long a request waits for Redis's decision before --redis-failure decides"
            + " (default: ${DEFAULT-VALUE}, the limiter's)")
    Duration redisTimeout;

    @Option(names = "--redis-failure", defaultValue = "open", converter = FailurePolicyConverter.class,
        completionCandidates = FailurePolicyConverter.Candidates.class,
        description = "when Redis does not answer: open admits the request (the limit is not enforced until Redis is"
            + " back; at startup: a warning), closed refuses it with rate_limiter_unavailable (at startup: exit code 1)"
            + " (default: ${DEFAULT-VALUE}, the limiter's)")
    FailurePolicy redisFailure;

    /** What each gate is wrapped in before use: counting its decisions when metrics are on. */
    private UnaryOperator<RequestGate> observe = UnaryOperator.identity();

    /** Written by protect(), cleared by close(), which may run on another thread. */
    private volatile RedisRateLimiter redisLimiter;

    /**
     * The limit for the startup line, its unit always spelled out: {@code off}, or e.g. {@code 425/s (burst 10,
     * max wait 0 ms, in this process)}; {@code --rate-limit 425} reads {@code 425/s}.
     */
    public String describe() {
        if (!enabled()) {
            return "off";
        }
        return perSecondText() + " (burst " + burst + ", max wait " + maxWait.toMillis() + " ms, " + (redis == null
            ? "key " + key + ", in this process)" : "key " + key + ", shared through redis at "
            + RedisUriConverter.describe(redis) + ")");
    }

    /** The rate per second with its unit, whatever unit it was given in: {@code 425/s}, {@code 0.017/s}. */
    private String perSecondText() {
        double perSecond = parseRate(rate);
        return (perSecond == Math.rint(perSecond) ? String.valueOf((long) perSecond)
            : String.format(java.util.Locale.ROOT, "%.3f", perSecond)) + "/s";
    }

    /** Whether a limit was asked for. */
    public boolean enabled() {
        return rate != null;
    }

    /** Makes {@link #protect} wrap each gate in {@code observe} (for example to count its decisions). */
    public RateLimitOptions observeGates(UnaryOperator<RequestGate> observe) {
        this.observe = observe;
        return this;
    }

    /**
     * {@code acceptor} behind the configured limit (unchanged when none). With {@code --redis}, connects to Redis
     * and checks that it answers (see the class comment).
     *
     * @throws IllegalArgumentException if an option is wrong (a usage error)
     * @throws IllegalStateException if Redis does not answer and {@code --redis-failure} is {@code closed}
     */
    public SocketAcceptor protect(SocketAcceptor acceptor) {
        if (!enabled()) {
            if (redis != null) {
                throw new IllegalArgumentException("--redis needs --rate-limit: there is no limit to share");
            }
            return acceptor;
        }
        double perSecond = parseRate(rate);
        if (burst < 1) {
            throw new IllegalArgumentException("--burst must be >= 1, got " + burst);
        }
        if (maxWait.isNegative()) {
            throw new IllegalArgumentException("--max-wait must be >= 0, got " + maxWait);
        }
        Function<Connection, Function<Payload, String>> keys = keys();
        if (redis != null) {
            return protectWithRedis(acceptor, perSecond, keys);
        }
        if (key.equals(GLOBAL_KEY)) {
            RateLimiter limiter = RateLimiter.create(perSecond, burst);
            RequestGate gate = observe.apply(RateLimitGate.of(limiter, maxWait));
            return RequestGate.protect(acceptor, c -> gate);
        }
        KeyedRateLimiter<String> limiter = KeyedRateLimiter.<String>builder(perSecond, burst).build();
        return RequestGate.protect(acceptor, c -> observe.apply(RateLimitGate.of(limiter, keys.apply(c), maxWait)));
    }

    /** Closes the connection to Redis, if {@code --redis} opened one. Idempotent; may block for a few seconds. */
    @Override
    public void close() {
        RedisRateLimiter l = redisLimiter;
        redisLimiter = null;
        if (l != null) {
            l.close();
        }
    }

    /** {@link #close() Closes} this once {@code closed} terminates, off the thread that terminates it. */
    public void closeWhen(Mono<Void> closed) {
        if (redisLimiter != null) {
            closed.onErrorResume(e -> Mono.empty()).publishOn(Schedulers.boundedElastic())
                .doFinally(s -> close()).subscribe();
        }
    }

    /**
     * The bucket of each request, per connection: one for all, the client's address, or a metadata value. The
     * names carry the kind of key, so that buckets of different kinds never meet in Redis.
     */
    private Function<Connection, Function<Payload, String>> keys() {
        if (key.equals(GLOBAL_KEY)) {
            return c -> p -> GLOBAL_KEY;
        }
        if (key.equals("remote-address")) {
            return c -> {
                String address = String.valueOf(c.remoteAddress());
                int slash = address.indexOf('/');
                String client = "remote-address:" + address.substring(slash + 1, address.lastIndexOf(':'));
                return p -> client;
            };
        }
        if (key.startsWith("metadata:") && key.length() > "metadata:".length()) {
            String mime = key.substring("metadata:".length());
            Function<Payload, String> value = metadataValue(mime);
            String prefix = key + ":";
            return c -> p -> prefix + value.apply(p);
        }
        throw new IllegalArgumentException("--rate-limit-key must be global, remote-address or metadata:NAME, got '"
            + key + "'");
    }

    private SocketAcceptor protectWithRedis(SocketAcceptor acceptor, double perSecond,
                                            Function<Connection, Function<Payload, String>> keys) {
        if (redisTimeout.isNegative() || redisTimeout.isZero()) {
            throw new IllegalArgumentException("--redis-timeout must be > 0, got " + redisTimeout.toMillis() + "ms");
        }
        RedisRateLimiter limiter = RedisRateLimiter.builder(perSecond, burst).redis(redis).timeout(redisTimeout)
            .failurePolicy(redisFailure).build();
        String where = RedisUriConverter.describe(redis);
        String problem = RedisProbe.problem(limiter, RedisRateLimiter.DEFAULT_CONNECT_TIMEOUT.plus(redisTimeout));
        if (problem != null && redisFailure == FailurePolicy.FAIL_CLOSED) {
            limiter.close();
            throw new IllegalStateException("redis at " + where + " does not answer (" + problem + "), and"
                + " --redis-failure closed would refuse every request: start Redis or fix --redis");
        }
        if (problem != null) {
            log.warn("redis at {} does not answer ({}); --redis-failure open: requests are admitted without a limit"
                + " until it does", where, problem);
        } else {
            log.info("rate limit {} shared through redis at {} (burst {}, max wait {} ms, timeout {} ms, failure"
                + " policy {})", perSecondText(), where, burst, maxWait.toMillis(), redisTimeout.toMillis(),
                FailurePolicyConverter.name(redisFailure));
        }
        redisLimiter = limiter;
        return RequestGate.protect(acceptor,
            c -> observe.apply(RedisRateLimitGate.of(limiter, keys.apply(c), maxWait)));
    }

    /** Parses {@code 425/s}, {@code 100/ms}, {@code 6000/m} or a plain number (per second). */
    public static double parseRate(String text) {
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
