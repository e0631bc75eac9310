package dev.sluice.cli.report;

import dev.sluice.cli.load.Latency;
import dev.sluice.cli.load.LoadSummary;
import dev.sluice.cli.load.Ramp;
import dev.sluice.cli.load.SecondStats;
import dev.sluice.cli.load.StepStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Load runs made up for report tests, shaped like the lease demo's three scenarios: deterministic, and with the
 * accounting of a real run (sent = accepted + rejected + failed, in-flight chained from second to second).
 */
final class SyntheticRuns {

    static final String[] SERVERS = {"127.0.0.1:7001", "127.0.0.1:7002", "127.0.0.1:7003"};

    private SyntheticRuns() {
    }

    /** Every request accepted, latency climbing from 3 ms to seconds as the servers saturate. */
    static LoadSummary saturated(int seconds) {
        List<SecondStats> list = new ArrayList<>();
        for (int i = 0; i < seconds; i++) {
            double f = i / (double) Math.max(1, seconds - 1);
            long p50 = (long) (3_000 * Math.pow(600, f));     // 3 ms .. 1.8 s
            long p99 = (long) (20_000 * Math.pow(245, f));    // 20 ms .. 4.9 s
            long accepted = i == 0 ? 960 : 974;
            list.add(second(i, 1000, accepted, 0, 0, latency(accepted, p50, p99), Latency.NONE, list));
        }
        // The requests still queued when sending stopped are answered while the run drains.
        long queued = list.get(list.size() - 1).inFlight();
        list.add(second(seconds, 0, queued, 0, 0, latency(queued, 2_500_000, 4_900_000), Latency.NONE, list));
        return summary(seconds, list, latency(1000L * seconds, 1_100_000, 4_877_000), Latency.NONE, Map.of());
    }

    /** {@code accepted} per second answered within milliseconds, the rest of 1000 rejected in microseconds. */
    static LoadSummary leased(int seconds, long accepted, long p99Micros, int failedInLastSecond) {
        List<SecondStats> list = new ArrayList<>();
        for (int i = 0; i < seconds; i++) {
            long failed = i == seconds - 1 ? failedInLastSecond : 0;
            long rejected = 1000 - accepted - failed;
            list.add(second(i, 1000, accepted, rejected, failed,
                latency(accepted, p99Micros / 4 + i * 10, p99Micros + (i % 3) * 200),
                latency(rejected, 180, 420 + i), list));
        }
        Map<String, Long> failures = failedInLastSecond == 0 ? Map.of()
            : Map.of("no answer within the drain timeout (10 s)", (long) failedInLastSecond);
        return summary(seconds, list, latency(accepted * seconds, p99Micros / 4, p99Micros),
            latency((1000 - accepted) * seconds, 180, 430), failures);
    }

    private static SecondStats second(int i, long sent, long accepted, long rejected, long failed,
                                      Latency responses, Latency rejections, List<SecondStats> before) {
        Map<String, Long> byServer = new TreeMap<>();
        for (int s = 0; s < SERVERS.length; s++) {
            byServer.put(SERVERS[s], accepted / 3 + (s < accepted % 3 ? 1 : 0));
        }
        long inFlight = before.isEmpty() ? 0 : before.get(before.size() - 1).inFlight();
        inFlight += sent - accepted - rejected - failed;
        return new SecondStats(i, sent, accepted, rejected, failed, inFlight, byServer, responses,
            rejections);
    }

    private static Latency latency(long count, long p50, long p99) {
        return count == 0 ? Latency.NONE
            : new Latency(count, p50, (p50 + p99) / 2, (p50 + 3 * p99) / 4, p99, p99 + p99 / 10);
    }

    private static LoadSummary summary(int sendingSeconds, List<SecondStats> seconds, Latency responses,
                                       Latency rejections, Map<String, Long> failures) {
        long sent = 0;
        long accepted = 0;
        long rejected = 0;
        long failed = 0;
        Map<String, Long> byServer = new TreeMap<>();
        for (SecondStats s : seconds) {
            sent += s.sent();
            accepted += s.responses();
            rejected += s.rejected();
            failed += s.failed();
            s.responsesByServer().forEach((k, v) -> byServer.merge(k, v, Long::sum));
        }
        Duration sending = Duration.ofSeconds(sendingSeconds);
        // One step, as a constant load has: every request in it; rejections stand in for every failure's latency.
        StepStats step = new StepStats(0, 1000, sending, sent, accepted, rejected, 0, failed, responses, rejections,
            rejections, Map.of(), failures);
        return new LoadSummary(Ramp.constant(1000, sending), null, 16, sending, List.of(step), seconds, byServer,
            responses, rejections, rejections, 999.8, 412, false);
    }
}
