package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.sluice.cli.address.Address;
import dev.sluice.cli.files.FileServerCommand;
import dev.sluice.cli.proxy.ProxyCommand;
import dev.sluice.core.CloseableServer;
import dev.sluice.testkit.RedisServerProcess;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The exit-code contract of docs/cli.md, command by command: 0 on success, 1 on a failure at run time (one line,
 * no stack trace), 2 on a usage error. The long-running servers succeed by answering {@code --version}; their
 * run-time failure is a port already in use.
 */
class ExitCodesTest {

    @TempDir
    static Path dir;

    private static CloseableServer echo;
    private static CloseableServer files;
    private static CloseableServer orphanProxy;
    private static ServerSocket busy;

    @BeforeAll
    static void start() throws IOException {
        EchoServerCommand e = new EchoServerCommand();
        new CommandLine(e).parseArgs("--address", "127.0.0.1:0");
        echo = e.start();
        Files.createDirectories(dir.resolve("served"));
        Files.writeString(dir.resolve("served/hello.txt"), "hello");
        Files.writeString(dir.resolve("up.txt"), "up");
        FileServerCommand f = new FileServerCommand();
        new CommandLine(f).parseArgs("--address", "127.0.0.1:0", "--dir", dir.resolve("served").toString());
        files = f.start();
        // A proxy whose only server is down: it accepts clients, and fails every request they send.
        orphanProxy = ProxyCommand.of(Address.tcp("127.0.0.1", 0),
            List.of(Address.tcp("127.0.0.1", RedisServerProcess.freePort()))).start();
        busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Files.writeString(dir.resolve("not-a-dir"), "a file where a directory is expected");
    }

    @AfterAll
    static void stop() throws IOException {
        for (CloseableServer s : new CloseableServer[] {echo, files, orphanProxy}) {
            if (s != null) {
                s.dispose();
            }
        }
        if (busy != null) {
            busy.close();
        }
    }

    @Test
    void everyCommandExitsZeroOnSuccessOneOnFailureTwoOnAUsageError() throws IOException {
        String echoAt = "127.0.0.1:" + echo.port();
        String filesAt = "127.0.0.1:" + files.port();
        String proxyAt = "127.0.0.1:" + orphanProxy.port();
        String busyAt = "127.0.0.1:" + busy.getLocalPort();
        String refused = "127.0.0.1:" + RedisServerProcess.freePort();
        String unwritable = dir.resolve("not-a-dir/report.html").toString();
        Object[][] rows = {
            // command, expected exit code, arguments after the command
            {"demo", 0, new String[] {"--duration", "1s", "--warmup", "0s", "--rps", "50", "--leases", "30",
                "--report", dir.resolve("demo.html").toString()}},
            {"demo", 1, new String[] {"--duration", "1s", "--warmup", "0s", "--rps", "50", "--leases", "30",
                "--report", unwritable}},
            {"demo", 2, new String[] {"--rps", "0"}},
            {"sla", 0, new String[] {"--from", "50", "--to", "50", "--step", "50", "--step-duration", "1s",
                "--warmup", "0s", "--timeout", "500ms", "--report", dir.resolve("sla.html").toString()}},
            {"sla", 1, new String[] {"--from", "50", "--to", "50", "--step", "50", "--step-duration", "1s",
                "--warmup", "0s", "--timeout", "500ms", "--report", unwritable}},
            {"sla", 2, new String[] {"--step", "0"}},
            {"load", 0, new String[] {"--target", echoAt, "--rps", "50", "--duration", "1s"}},
            {"load", 1, new String[] {"--target", refused, "--duration", "1s"}},
            {"load", 1, new String[] {"--target", proxyAt, "--rps", "20", "--duration", "1s", "--drain-timeout",
                "2s"}},
            {"load", 2, new String[] {"--target", echoAt, "--rps", "lots"}},
            {"server", 0, new String[] {"--version"}},
            {"server", 1, new String[] {"--address", busyAt}},
            {"server", 2, new String[] {"--drain-timeout", "-1s"}},
            {"server", 1, new String[] {"--address", "127.0.0.1:0", "--metrics-address", busyAt}},
            {"server", 2, new String[] {"--metrics-address", "nowhere"}},
            {"proxy", 0, new String[] {"--version"}},
            {"proxy", 1, new String[] {"--address", busyAt, "--servers", refused}},
            {"proxy", 2, new String[] {"--servers", refused, "--drain-timeout", "soon"}},
            {"proxy", 1, new String[] {"--address", "127.0.0.1:0", "--servers", refused, "--metrics-address",
                busyAt}},
            {"echo-server", 0, new String[] {"--version"}},
            {"echo-server", 1, new String[] {"--address", busyAt}},
            {"echo-server", 2, new String[] {"--mtu", "many"}},
            {"file-server", 0, new String[] {"--version"}},
            {"file-server", 1, new String[] {"--address", busyAt, "--dir", dir.toString()}},
            {"file-server", 2, new String[] {"--address", busyAt}},
            {"upload", 0, new String[] {"--target", filesAt, dir.resolve("up.txt").toString()}},
            {"upload", 1, new String[] {"--target", refused, dir.resolve("up.txt").toString()}},
            {"upload", 2, new String[] {"--target", filesAt}},
            {"download", 0, new String[] {"--target", filesAt, "hello.txt", "--output",
                dir.resolve("hello.txt").toString()}},
            {"download", 1, new String[] {"--target", refused, "hello.txt", "--output",
                dir.resolve("never.txt").toString()}},
            {"download", 2, new String[] {"hello.txt"}},
        };
        Map<String, List<Integer>> seen = new HashMap<>();
        for (Object[] row : rows) {
            String command = (String) row[0];
            int expected = (Integer) row[1];
            List<String> args = new ArrayList<>(List.of(command));
            args.addAll(List.of((String[]) row[2]));
            String out = CliRun.run(args.toArray(String[]::new));
            assertThat(out).as("sluice %s", String.join(" ", args)).startsWith(expected + "|")
                .doesNotContain("\tat ");
            if (expected == 1) {
                // The last line: "sluice COMMAND: what went wrong", without a class or a socket call's name.
                String last = out.strip().lines().reduce((a, b) -> b).orElseThrow().replaceFirst("^1\\|", "");
                assertThat(last).as("a run-time failure is one line naming the command: %s", out)
                    .startsWith("sluice " + command + ": ").doesNotContain("Exception").doesNotContain("(..)");
            }
            seen.computeIfAbsent(command, k -> new ArrayList<>()).add(expected);
        }
        assertThat(seen.keySet()).as("every command of the CLI has rows")
            .containsExactlyInAnyOrderElementsOf(Main.commandLine().getSubcommands().keySet().stream()
                .filter(c -> !c.equals("help")).toList());
        seen.forEach((command, codes) -> assertThat(codes).as(command).contains(0, 1, 2));
    }

    @Test
    void aMetricsAddressInUseIsNamed() {
        String out = CliRun.run("echo-server", "--address", "127.0.0.1:0", "--metrics-address",
            "127.0.0.1:" + busy.getLocalPort());
        assertThat(out).isEqualTo("1|sluice echo-server: cannot serve metrics on 127.0.0.1:" + busy.getLocalPort()
            + ": address already in use\n");
    }

    /**
     * A bad {@code -Dsluice.files.threads} is a setting of the JVM, not an option: a run-time failure in one line.
     * It used to be read when picocli made the commands, so every command died of an ExceptionInInitializerError.
     */
    @Test
    void aBadFileThreadsPropertyIsOneLineFromFileServerAndNoConcernOfTheOtherCommands() {
        String before = System.getProperty("sluice.files.threads");
        System.setProperty("sluice.files.threads", "0");
        try {
            assertThat(CliRun.run("file-server", "--address", "127.0.0.1:0", "--dir", dir.resolve("served").toString()))
                .isEqualTo("1|sluice file-server: -Dsluice.files.threads must be a whole number >= 1, got '0'\n");
            assertThat(CliRun.run("upload", "--help")).startsWith("0|Usage: sluice upload");
        } finally {
            if (before == null) {
                System.clearProperty("sluice.files.threads");
            } else {
                System.setProperty("sluice.files.threads", before);
            }
        }
    }

    @Test
    void aLoadThroughAProxyWithoutServersSaysWhyEveryRequestFailed() {
        String out = CliRun.run("load", "--target", "127.0.0.1:" + orphanProxy.port(), "--rps", "20",
            "--duration", "1s");
        assertThat(out).startsWith("1|").contains("sluice load: no request succeeded: 20 sent, 0 rejected,"
            + " 0 timed out, 20 failed (mostly: no target available");
    }

    @Test
    void jsonIsOneObjectOnStdoutWithTheExitCode() throws IOException {
        String out = CliRun.run("load", "--target", "127.0.0.1:" + echo.port(), "--rps", "20", "--duration", "1s",
            "--json");
        assertThat(out).startsWith("0|{");
        Map<String, String> fields = topLevelFields(out.substring(2));
        assertThat(fields).containsEntry("command", "load").containsEntry("exitCode", "0")
            .containsKeys("version", "date", "commandLine", "machine", "run");
        assertThat(fields.get("commandLine")).startsWith("sluice load --target 127.0.0.1:");

        String failed = CliRun.run("load", "--target", "127.0.0.1:" + orphanProxy.port(), "--rps", "20",
            "--duration", "1s", "--json");
        assertThat(failed).startsWith("1|{");
        String json = failed.substring(2, failed.indexOf("\nsluice load: ") + 1);
        assertThat(topLevelFields(json)).containsEntry("exitCode", "1");
    }

    /** The scalar fields of a JSON object (nested objects as "{}"), checking that it is well-formed. */
    private static Map<String, String> topLevelFields(String json) throws IOException {
        Map<String, String> fields = new HashMap<>();
        try (JsonParser p = new JsonFactory().createParser(json)) {
            assertThat(p.nextToken()).isEqualTo(JsonToken.START_OBJECT);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (value == JsonToken.START_OBJECT || value == JsonToken.START_ARRAY) {
                    p.skipChildren();
                    fields.put(name, "{}");
                } else {
                    fields.put(name, p.getText());
                }
            }
            assertThat(p.nextToken()).as("nothing after the object").isNull();
        }
        return fields;
    }
}
