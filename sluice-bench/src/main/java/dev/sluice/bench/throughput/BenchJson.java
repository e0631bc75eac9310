package dev.sluice.bench.throughput;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.sluice.bench.throughput.internal.MachineInfo;
import dev.sluice.bench.throughput.internal.Summary;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code bench --json}: every cell's figures as one JSON object, with the same provenance fields as the
 * {@code sluice} commands' summaries (fields in {@code docs/cli.md}). Stateless.
 */
final class BenchJson {

    private static final JsonFactory JSON = new JsonFactory();

    private BenchJson() {
    }

    /** The summary of a run whose cells gave {@code results}, ending with {@code exitCode}. */
    static String render(MachineInfo machine, String when, String command, int exitCode, Path report,
                         List<CellResult> results) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("command", "bench");
            g.writeStringField("version", machine.versions().getOrDefault("sluice", "unknown"));
            g.writeStringField("date", when);
            g.writeStringField("commandLine", command);
            g.writeStringField("machine", machine.cpuModel() + ", " + machine.cpus() + " CPUs; " + machine.os()
                + "; " + machine.jvm());
            g.writeNumberField("exitCode", exitCode);
            g.writeStringField("report", report.toAbsolutePath().toString());
            g.writeArrayFieldStart("cells");
            for (CellResult r : results) {
                cell(g, r);
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private static void cell(JsonGenerator g, CellResult r) throws IOException {
        Cell c = r.cell();
        g.writeStartObject();
        g.writeStringField("implementation", c.impl().option());
        g.writeStringField("interaction", c.interaction().option());
        g.writeNumberField("payloadBytes", c.size());
        g.writeStringField("transport", c.transport().option());
        if (c.paced()) {
            g.writeNumberField("offeredRate", c.rate());
        } else {
            g.writeNullField("offeredRate");
        }
        g.writeBooleanField("ok", r.ok());
        if (r.failure() == null) {
            g.writeNullField("failure");
        } else {
            g.writeStringField("failure", r.failure());
        }
        if (r.perSecond().isEmpty()) {
            g.writeNullField("messagesPerSecond");
        } else {
            Summary s = r.summary();
            g.writeObjectFieldStart("messagesPerSecond");
            g.writeNumberField("median", s.median());
            g.writeNumberField("min", s.min());
            g.writeNumberField("max", s.max());
            g.writeNumberField("count", s.count());
            g.writeEndObject();
        }
        if (r.latency() == null) {
            g.writeNullField("latencyMicros");
        } else {
            LatencyFigures l = r.latency();
            g.writeObjectFieldStart("latencyMicros");
            g.writeNumberField("count", l.count());
            g.writeNumberField("p50", l.p50());
            g.writeNumberField("p99", l.p99());
            g.writeNumberField("p999", l.p999());
            g.writeNumberField("max", l.max());
            g.writeEndObject();
        }
        if (r.cores() == null) {
            g.writeNullField("coresBusy");
        } else {
            g.writeObjectFieldStart("coresBusy");
            g.writeNumberField("server", r.cores().server());
            g.writeNumberField("client", r.cores().client());
            g.writeEndObject();
        }
        g.writeEndObject();
    }
}
