package dev.sluice.cli.files;

import dev.sluice.cli.address.Address;
import dev.sluice.cli.address.ClientSecurityOptions;
import dev.sluice.cli.files.internal.Checksum;
import dev.sluice.cli.files.internal.ProgressDisplay;
import dev.sluice.cli.files.internal.ProgressLine;
import dev.sluice.cli.files.internal.ServedDirectory;
import dev.sluice.cli.files.internal.TransferClient;
import dev.sluice.core.Connection;
import dev.sluice.files.FileIoScheduler;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import reactor.core.scheduler.Schedulers;

/** {@code sluice download}: fetches a file from a {@code sluice file-server} and verifies it. */
@Command(name = "download", mixinStandardHelpOptions = true,
    description = "Downloads NAME from the file server at --target over RSocket (request-stream), asking for"
        + " data only as fast as it is written, into a temporary file beside the output that is renamed to it once"
        + " the length and SHA-256 match what the server sent. Shows a progress bar on a terminal, one line"
        + " otherwise. Exit code 0 on success, 1 on any failure (connection, server error such as a missing file,"
        + " checksum mismatch); the output is then left as it was.")
public final class DownloadCommand implements Callable<Integer> {

    @Option(names = "--target", required = true, paramLabel = "ADDRESS",
        converter = Address.Converter.class,
        description = "the file server: host:port, tls://host:port, ws://host:port[/path], unix:PATH")
    Address target;

    @Mixin
    ClientSecurityOptions security = new ClientSecurityOptions();

    @Parameters(index = "0", paramLabel = "NAME",
        description = "the file's name on the server: a path relative to the served directory, '/' separated")
    String name;

    @Option(names = "--output", paramLabel = "FILE",
        description = "where to save it; a directory gets NAME's last segment (default: that segment, in the"
            + " current directory). An existing file is replaced.")
    Path output;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        Path to = validate();
        PrintWriter out = spec.commandLine().getOut();
        Connection connection;
        try {
            connection = TransferRun.connect(target, security, spec.commandLine().getErr(), "download");
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        ProgressDisplay progress = ProgressDisplay.start(out, System.console() != null, System::nanoTime,
            Schedulers.parallel());
        try {
            TransferClient client = new TransferClient(connection, FileIoScheduler.shared());
            Checksum received = TransferRun.await(
                client.download(name, to, progress.meter()::total, progress.meter()::add), connection, target);
            progress.close(); // wipes the bar for the final line
            out.println(ProgressLine.summary("downloaded " + ServedDirectory.quote(name) + " from " + target
                + " to " + to, received, progress.elapsedNanos()));
            out.flush();
            return 0;
        } finally {
            progress.close();
            connection.dispose();
        }
    }

    /** Argument errors (exit code 2) before anything is asked; returns the file to write. */
    private Path validate() {
        if (name.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "NAME must not be empty");
        }
        String last = name.substring(name.lastIndexOf('/') + 1);
        boolean usable = !last.isEmpty() && !last.equals(".") && !last.equals("..");
        Path to = output;
        if (to == null || Files.isDirectory(to)) {
            if (!usable) {
                throw new ParameterException(spec.commandLine(), "NAME '" + name + "' does not end in a file name"
                    + " to save under; give --output FILE");
            }
            to = to == null ? Path.of(last) : to.resolve(last);
        }
        Path parent = to.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new ParameterException(spec.commandLine(), "the output's directory does not exist: '" + parent
                + "'");
        }
        if (Files.isDirectory(to)) {
            throw new ParameterException(spec.commandLine(), "the output is a directory: '" + to + "'");
        }
        return to;
    }
}
