package dev.sluice.cli;

import dev.sluice.cli.demo.DemoCommand;
import dev.sluice.cli.files.DownloadCommand;
import dev.sluice.cli.files.FileServerCommand;
import dev.sluice.cli.files.UploadCommand;
import dev.sluice.cli.load.LoadCommand;
import dev.sluice.cli.proxy.ProxyCommand;
import dev.sluice.cli.report.RunInfo;
import dev.sluice.cli.server.ServerCommand;
import dev.sluice.cli.sla.SlaCommand;
import java.nio.file.FileSystemException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code sluice} command. Exit codes: 0 success, 1 a failure at run time (message printed, no stack trace),
 * 2 wrong arguments (picocli's usage error, with the message and the usage).
 */
@Command(name = "sluice", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
    description = "A reactive RSocket stack with overload control in every layer.",
    footer = Main.FOOTER,
    subcommands = {DemoCommand.class, EchoServerCommand.class, ServerCommand.class, ProxyCommand.class,
        LoadCommand.class, SlaCommand.class,
        FileServerCommand.class, UploadCommand.class, DownloadCommand.class,
        CommandLine.HelpCommand.class})
public final class Main implements Runnable {

    /** The benchmark driver lives in sluice-bench (with its peers' dependencies), so bin/sluice starts it. */
    static final String FOOTER = "%nAlso: bin/sluice bench [--help] runs the throughput comparison with"
        + " rsocket-java, grpc-java and a raw-Netty floor.";

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns the exit code (tests call this instead of {@link #main}). */
    public static int run(String... args) {
        return commandLine().execute(args);
    }

    /** The configured command line: run-time failures print one line and exit 1. */
    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new Main());
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println("sluice " + commandLine.getCommandName() + ": " + message(e));
            return 1;
        });
        return cli;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command: choose one of "
            + String.join(", ", spec.subcommands().keySet()));
    }

    /** {@code sluice --version}: this build's version, as the reports state it. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"sluice " + RunInfo.VERSION};
        }
    }

    static String message(Throwable e) {
        // Bounded by the depth, should the chain be a cycle.
        Throwable c = e;
        for (int depth = 0; c != null && depth < 8; depth++, c = c.getCause()) {
            if (c instanceof FileSystemException f) {
                // Its message is the bare path: say what is wrong with it.
                return f.getFile() + ": " + (f.getReason() != null ? f.getReason()
                    : c.getClass().getSimpleName().replace("Exception", "").replaceAll("([a-z])([A-Z])", "$1 $2")
                        .toLowerCase(java.util.Locale.ROOT));
            }
        }
        Throwable t = e;
        while (t.getCause() != null && (t.getMessage() == null || t instanceof RuntimeException
            && t.getClass() == RuntimeException.class)) {
            t = t.getCause();
        }
        return t.getMessage() != null ? t.getMessage() : Problems.describe(t);
    }
}
