package dev.sluice.limits.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testkit.RedisServerProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Two JVMs share one limit: this one and a second started with {@link Hammer#main}, both asking for the same key as
 * fast as Redis answers during the same window of Redis's clock. Together they must admit at most
 * {@code R·T + burst}, the most a single limiter of rate R and that burst admits in T seconds.
 */
class TwoProcessTest {

    private static final double RATE = 100;
    private static final int BURST = 10;
    private static final long WINDOW_MICROS = 2_000_000;
    private static final int THREADS = 2;
    private static final Pattern COUNTS = Pattern.compile("admitted=(\\d+) decided=(\\d+) degraded=(\\d+)");

    private static RedisServerProcess redis;

    @BeforeAll
    static void startRedis() throws Exception {
        if (!RedisServerProcess.installed()) {
            return;
        }
        redis = RedisServerProcess.start();
    }

    @BeforeEach
    void assumeRedis() {
        RedisServerProcess.assumeInstalled();
    }

    @AfterAll
    static void stopRedis() {
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    @DisplayName("two JVMs sharing R/s for T s admit at most R·T + burst between them")
    void twoJvmsShareOneLimit() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-Xmx128m", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), Hammer.class.getName(),
                redis.uri(), "shared", Double.toString(RATE), Integer.toString(BURST), Integer.toString(THREADS))
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    lines.add(line);
                }
            } catch (IOException e) {
                lines.add("read failed: " + e);
            }
        }, "child-stdout");
        reader.setDaemon(true);
        reader.start();
        try (RedisRateLimiter limiter = RedisRateLimiter.builder(RATE, BURST).redis(redis.uri())
                .timeout(Duration.ofSeconds(2)).build()) {
            assertThat(limiter.allowN("shared", 0).block(Duration.ofSeconds(10)).degraded()).isFalse();
            assertThat(lines.poll(60, TimeUnit.SECONDS)).as("the second JVM is connected").isEqualTo("ready");

            List<?> time = (List<?>) redis.command("TIME");
            long now = Long.parseLong((String) time.get(0)) * 1_000_000 + Long.parseLong((String) time.get(1));
            long start = now + 200_000;
            long end = start + WINDOW_MICROS;
            Writer toChild = new OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8);
            toChild.write(start + " " + end + "\n");
            toChild.flush();

            Hammer.Counts here = Hammer.hammer(limiter, "shared", start, end, THREADS);
            String report = lines.poll(60, TimeUnit.SECONDS);
            assertThat(report).as("the second JVM's counts").isNotNull();
            Matcher m = COUNTS.matcher(report);
            assertThat(m.matches()).as("the second JVM's counts: %s", report).isTrue();
            Hammer.Counts there = new Hammer.Counts(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)),
                    Long.parseLong(m.group(3)));
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(child.exitValue()).isZero();

            long admitted = here.admitted() + there.admitted();
            double seconds = WINDOW_MICROS / 1e6;
            System.out.printf("two JVMs, %.0f/s burst %d for %.1f s: admitted %d (here %d of %d decisions, there %d"
                    + " of %d); bound %d%n", RATE, BURST, seconds, admitted, here.admitted(), here.decided(),
                    there.admitted(), there.decided(), (long) (RATE * seconds) + BURST);
            assertThat(here.degraded() + there.degraded()).as("every decision made by Redis").isZero();
            assertThat(here.decided()).as("this JVM asked during the window").isPositive();
            assertThat(there.decided()).as("the second JVM asked during the window").isPositive();
            assertThat(here.decided() + there.decided()).as("they contended: more asked than admitted")
                    .isGreaterThan(admitted);
            assertThat(admitted).as("at most R·T + burst").isLessThanOrEqualTo((long) (RATE * seconds) + BURST);
            assertThat(admitted).as("a sane lower bound: half of R·T").isGreaterThanOrEqualTo(
                    (long) (RATE * seconds / 2));
        } finally {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
