package dev.sluice.bench.throughput.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * What a report says about where it ran: the CPU model and count ({@code lscpu}, else {@code /proc/cpuinfo}), the
 * kernel, the JVM, and the library versions sluice-bench was built with.
 */
public record MachineInfo(String cpuModel, int cpus, String os, String jvm, Map<String, String> versions) {

    private static final String VERSIONS = "/dev/sluice/bench/throughput/versions.properties";

    /** Probes this machine and JVM. */
    public static MachineInfo probe() {
        String lscpu = run("lscpu");
        String model = field(lscpu, "Model name:");
        if (model == null) {
            model = cpuinfoModel();
        }
        String cpus = field(lscpu, "CPU(s):");
        int count;
        try {
            count = cpus == null ? Runtime.getRuntime().availableProcessors() : Integer.parseInt(cpus);
        } catch (NumberFormatException e) {
            count = Runtime.getRuntime().availableProcessors();
        }
        String os = System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
            + System.getProperty("os.arch");
        String jvm = System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + " ("
            + System.getProperty("java.vm.vendor") + ")";
        return new MachineInfo(model == null ? "unknown" : model, count, os, jvm, builtVersions());
    }

    /** The library versions sluice-bench was built with (its filtered {@code versions.properties}). */
    public static Map<String, String> builtVersions() {
        Properties p = new Properties();
        try (InputStream in = MachineInfo.class.getResourceAsStream(VERSIONS)) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // Reported as unknown below.
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (String k : new String[] {"sluice", "rsocket-java", "grpc-java", "netty", "reactor-core",
            "reactor-netty"}) {
            out.put(k, p.getProperty(k, "unknown"));
        }
        return out;
    }

    private static String field(String text, String name) {
        if (text == null) {
            return null;
        }
        for (String line : text.split("\n")) {
            if (line.startsWith(name)) {
                return line.substring(name.length()).trim();
            }
        }
        return null;
    }

    private static String cpuinfoModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"), StandardCharsets.UTF_8)) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException e) {
            // Not Linux, or not readable: unknown.
        }
        return null;
    }

    private static String run(String command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
