package dev.sluice.cli;

import dev.sluice.core.CloseableServer;
import java.time.Duration;
import org.slf4j.Logger;
import picocli.CommandLine.Option;

/**
 * {@code --drain-timeout}: how a serving command shuts down (Ctrl-C, SIGTERM). It stops listening, closes every
 * connection gracefully and gives the requests in flight this long to finish. A picocli mixin for {@code server},
 * {@code proxy}, {@code echo-server} and {@code file-server}, so that the four say and do the same.
 */
public final class DrainOptions {

    @Option(names = "--drain-timeout", defaultValue = "5s", converter = DurationConverter.class,
        description = "on shutdown (Ctrl-C, SIGTERM), how long requests in flight may take to finish before their"
            + " connections are closed (default: ${DEFAULT-VALUE})")
    Duration timeout = Duration.ofSeconds(5);

    public Duration timeout() {
        return timeout;
    }

    /** @throws IllegalArgumentException when the timeout is negative (a usage error) */
    public void check() {
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("--drain-timeout must be >= 0, got " + timeout.toMillis() + "ms");
        }
    }

    /** Says so in {@code log}, then closes {@code running} gracefully, waiting up to the timeout (and a second). */
    public void drain(CloseableServer running, Logger log) {
        log.info("shutting down: draining connections for up to {} ms", timeout.toMillis());
        running.closeGracefully(timeout).block(timeout.plusSeconds(1));
    }
}
