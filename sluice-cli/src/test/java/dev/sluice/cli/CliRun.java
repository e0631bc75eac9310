package dev.sluice.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs the {@code sluice} command line in-process, for tests. */
public final class CliRun {

    private CliRun() {
    }

    /** Runs the CLI and returns "exitCode|stdout+stderr". */
    public static String run(String... args) {
        StringWriter out = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(out, true));
        int code = cli.execute(args);
        return code + "|" + out;
    }
}
