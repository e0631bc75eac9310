package dev.sluice.cli.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * Where a report's numbers come from, so that a report read weeks later can be compared with another: when it ran,
 * which Sluice, the command line and the machine. Shown at the top of every HTML report and in every
 * {@code --json} summary.
 *
 * <p>Immutable.
 *
 * @param date when the run started, UTC, to the second
 * @param version Sluice's version ({@code 0.1.0-SNAPSHOT}), from the build
 * @param commandLine the command as typed, e.g. {@code sluice demo --duration 10s}
 * @param machine host name, operating system, processors, Java runtime and its maximum heap
 */
public record RunInfo(Instant date, String version, String commandLine, String machine) {

    /** This build's version, or {@code unknown} when run from classes without the filtered resource. */
    public static final String VERSION = readVersion();

    /** The run starting now, with the arguments after {@code sluice}. */
    public static RunInfo now(List<String> args) {
        return new RunInfo(Instant.now().truncatedTo(ChronoUnit.SECONDS), VERSION,
            "sluice " + String.join(" ", args), thisMachine());
    }

    /** E.g. {@code build-7 (Linux 6.8 amd64, 2 processors, Java 17.0.15 Eclipse Adoptium, max heap 1024 MiB)}. */
    static String thisMachine() {
        // The environment or /etc/hostname: a DNS lookup of the local name could stall a report for seconds.
        String host = System.getenv("HOSTNAME");
        if (host == null || host.isBlank()) {
            host = System.getenv("COMPUTERNAME");
        }
        if ((host == null || host.isBlank()) && Files.isReadable(Path.of("/etc/hostname"))) {
            try {
                host = Files.readString(Path.of("/etc/hostname")).strip();
            } catch (IOException e) {
                host = null;
            }
        }
        return String.format(Locale.ROOT, "%s (%s %s %s, %d processors, Java %s %s, max heap %d MiB)",
            host == null || host.isBlank() ? "unnamed host" : host, System.getProperty("os.name"),
            System.getProperty("os.version"), System.getProperty("os.arch"),
            Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
            System.getProperty("java.vendor"), Runtime.getRuntime().maxMemory() / (1024 * 1024));
    }

    private static String readVersion() {
        try (InputStream in = RunInfo.class.getResourceAsStream("/dev/sluice/cli/version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            String v = p.getProperty("version", "unknown");
            return v.startsWith("${") ? "unknown" : v;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
