package dev.sluice.cli.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.sluice.cli.load.Latency;
import dev.sluice.cli.load.LoadSummary;
import dev.sluice.cli.load.StepStats;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The machine-readable summary that {@code --json} prints instead of the tables: one JSON object per run, its
 * fields documented in {@code docs/cli.md} ("--json"). Counts are integers, rates per second and latencies in
 * microseconds; field names never change meaning (new ones may be added).
 *
 * <pre>{@code
 * {"command":"load","version":"0.1.0","date":"2026-11-26T15:40:00Z","commandLine":"sluice load ...",
 *  "machine":"...","exitCode":0,"run":{"sent":300,"succeeded":300,...}}
 * }</pre>
 *
 * <p>Stateless.
 */
public final class JsonSummary {

    private static final JsonFactory JSON = new JsonFactory();

    private JsonSummary() {
    }

    /** What one section of the object writes, with the generator positioned inside the top-level object. */
    @FunctionalInterface
    public interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    /** {@code sluice load}: the run and the exit code it ends with. */
    public static String load(RunInfo info, LoadSummary summary, int exitCode) {
        return object(info, "load", exitCode, g -> {
            g.writeFieldName("run");
            run(g, summary);
        });
    }

    /**
     * One {@code sluice demo} scenario's run.
     *
     * @param name                    the scenario's name ({@code lease 100/s}, {@code adaptive}, ...)
     * @param leasePerServerPerSecond the fixed lease, or null for adaptive leases
     * @param run                     what the load generator measured
     */
    public record DemoScenario(String name, Integer leasePerServerPerSecond, LoadSummary run) {
    }

    /** {@code sluice demo}: each scenario's run, in order, and the report written. */
    public static String demo(RunInfo info, List<DemoScenario> scenarios, Path report) {
        return object(info, "demo", 0, g -> {
            g.writeStringField("report", report.toAbsolutePath().toString());
            g.writeArrayFieldStart("scenarios");
            for (DemoScenario s : scenarios) {
                g.writeStartObject();
                g.writeStringField("scenario", s.name());
                if (s.leasePerServerPerSecond() != null) {
                    g.writeNumberField("leasePerServerPerSecond", s.leasePerServerPerSecond());
                } else {
                    g.writeNullField("leasePerServerPerSecond");
                }
                g.writeFieldName("run");
                run(g, s.run());
                g.writeEndObject();
            }
            g.writeEndArray();
        });
    }

    /** {@code sluice sla}: the ramp without and with the rate limiter, and the report written. */
    public static String sla(RunInfo info, LoadSummary withoutLimiter, LoadSummary withLimiter, Path report) {
        return object(info, "sla", 0, g -> {
            g.writeStringField("report", report.toAbsolutePath().toString());
            g.writeFieldName("withoutLimiter");
            run(g, withoutLimiter);
            g.writeFieldName("withLimiter");
            run(g, withLimiter);
        });
    }

    /** A top-level object: the command, the run's provenance, the exit code, then {@code body}'s fields. */
    public static String object(RunInfo info, String command, int exitCode, Body body) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("command", command);
            g.writeStringField("version", info.version());
            g.writeStringField("date", info.date().toString());
            g.writeStringField("commandLine", info.commandLine());
            g.writeStringField("machine", info.machine());
            g.writeNumberField("exitCode", exitCode);
            body.write(g);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private static void run(JsonGenerator g, LoadSummary s) throws IOException {
        g.writeStartObject();
        g.writeStringField("offered", s.ramp().describe());
        g.writeNumberField("durationSeconds", s.duration().toNanos() / 1e9);
        g.writeNumberField("payloadBytes", s.payloadSize());
        if (s.timeout() == null) {
            g.writeNullField("timeoutMillis");
        } else {
            g.writeNumberField("timeoutMillis", s.timeout().toMillis());
        }
        g.writeNumberField("sent", s.sent());
        g.writeNumberField("succeeded", s.successes());
        g.writeNumberField("rejected", s.rejected());
        g.writeNumberField("timedOut", s.timedOut());
        g.writeNumberField("failed", s.failed());
        g.writeNumberField("achievedRate", s.achievedRate());
        g.writeNumberField("succeededPerSecond", s.successesPerSecond());
        g.writeNumberField("maxSendLagMicros", s.maxSendLagMicros());
        g.writeBooleanField("stoppedEarly", s.stoppedEarly());
        g.writeObjectFieldStart("latencyMicros");
        latency(g, "succeeded", s.successLatency());
        latency(g, "rejected", s.rejectionLatency());
        latency(g, "failed", s.failureLatency());
        g.writeEndObject();
        counts(g, "responsesByServer", s.responsesByServer());
        counts(g, "rejectionsByMessage", s.rejectionsByMessage());
        counts(g, "failuresByCause", s.failuresByCause());
        g.writeArrayFieldStart("steps");
        for (StepStats step : s.steps()) {
            g.writeStartObject();
            g.writeNumberField("offeredRate", step.offeredRate());
            g.writeNumberField("durationSeconds", step.duration().toNanos() / 1e9);
            g.writeNumberField("sent", step.sent());
            g.writeNumberField("succeeded", step.successes());
            g.writeNumberField("rejected", step.rejected());
            g.writeNumberField("timedOut", step.timedOut());
            g.writeNumberField("failed", step.failed());
            g.writeObjectFieldStart("latencyMicros");
            latency(g, "succeeded", step.successLatency());
            latency(g, "rejected", step.rejectionLatency());
            latency(g, "failed", step.failureLatency());
            g.writeEndObject();
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static void latency(JsonGenerator g, String name, Latency l) throws IOException {
        g.writeObjectFieldStart(name);
        g.writeNumberField("count", l.count());
        g.writeNumberField("p50", l.p50Micros());
        g.writeNumberField("p90", l.p90Micros());
        g.writeNumberField("p95", l.p95Micros());
        g.writeNumberField("p99", l.p99Micros());
        g.writeNumberField("max", l.maxMicros());
        g.writeEndObject();
    }

    private static void counts(JsonGenerator g, String name, Map<String, Long> counts) throws IOException {
        g.writeObjectFieldStart(name);
        for (Map.Entry<String, Long> e : counts.entrySet()) {
            g.writeNumberField(e.getKey(), e.getValue());
        }
        g.writeEndObject();
    }
}
