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
import java.io.IOException;
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

/** {@code sluice upload}: sends a local file to a {@code sluice file-server} and verifies what it stored. */
@Command(name = "upload", mixinStandardHelpOptions = true,
    description = "Uploads FILE to the file server at --target over RSocket (request-channel), reading it only"
        + " as fast as the server writes, then checks the length and SHA-256 the server reports against what was"
        + " sent. Shows a progress bar on a terminal, one line otherwise. Exit code 0 when the checksums match, 1"
        + " on any failure (connection, server error, checksum mismatch).")
public final class UploadCommand implements Callable<Integer> {

    @Option(names = "--target", required = true, paramLabel = "ADDRESS",
        converter = Address.Converter.class,
        description = "the file server: host:port, tls://host:port, ws://host:port[/path], unix:PATH")
    Address target;

    @Mixin
    ClientSecurityOptions security = new ClientSecurityOptions();

    @Parameters(index = "0", paramLabel = "FILE", description = "the local file to upload")
    Path file;

    @Option(names = "--name", paramLabel = "NAME",
        description = "where to store it on the server: a path relative to the served directory, with '/'"
            + " separators (default: FILE's file name)")
    String name;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        String as = validate();
        long size;
        try {
            size = Files.size(file);
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), "cannot read FILE '" + file + "': " + e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        Connection connection;
        try {
            connection = TransferRun.connect(target, security, spec.commandLine().getErr(), "upload");
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        ProgressDisplay progress = ProgressDisplay.start(out, System.console() != null, System::nanoTime,
            Schedulers.parallel());
        try {
            progress.meter().total(size);
            TransferClient client = new TransferClient(connection, FileIoScheduler.shared());
            Checksum stored = TransferRun.await(client.upload(file, as, progress.meter()::add), connection,
                target);
            progress.close(); // wipes the bar for the final line
            out.println(ProgressLine.summary("uploaded " + file + " to " + target + " as "
                + ServedDirectory.quote(as), stored, progress.elapsedNanos()));
            out.flush();
            return 0;
        } finally {
            progress.close();
            connection.dispose();
        }
    }

    /** Argument errors (exit code 2) before anything is sent; returns the name to store under. */
    private String validate() {
        if (!Files.exists(file)) {
            throw new ParameterException(spec.commandLine(), "FILE does not exist: '" + file + "'");
        }
        if (!Files.isRegularFile(file)) {
            throw new ParameterException(spec.commandLine(), "FILE is not a regular file: '" + file + "'");
        }
        if (!Files.isReadable(file)) {
            throw new ParameterException(spec.commandLine(), "FILE is not readable: '" + file + "'");
        }
        if (name != null && name.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--name must not be empty");
        }
        return name != null ? name : file.getFileName().toString();
    }
}
