package dev.sluice.cli.files;

import dev.sluice.cli.DrainOptions;
import dev.sluice.cli.MetricsOptions;
import dev.sluice.cli.OptionMessage;
import dev.sluice.cli.address.Address;
import dev.sluice.cli.address.ServerSecurityOptions;
import dev.sluice.cli.files.internal.FileService;
import dev.sluice.cli.files.internal.ServedDirectory;
import dev.sluice.cli.files.internal.TransferListener;
import dev.sluice.cli.files.internal.TransferMeters;
import dev.sluice.core.CloseableServer;
import dev.sluice.core.RSocketServer;
import dev.sluice.files.FileIoScheduler;
import dev.sluice.micrometer.SluiceMetrics;
import dev.sluice.core.transport.ServerTransport;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import reactor.core.scheduler.Scheduler;

/** {@code sluice file-server}: stores uploads in, and serves downloads from, one directory. */
@Command(name = "file-server", mixinStandardHelpOptions = true,
    description = "Serves the files of --dir over RSocket until interrupted: `sluice upload` stores a file"
        + " (request-channel; written to a temporary file and renamed into place only once complete, with memory"
        + " bounded by the disk's pace) and answers with its length and SHA-256; `sluice download` streams one"
        + " (request-stream). Names are paths relative to --dir; names with '..', absolute names and symbolic"
        + " links leading out of --dir are refused.")
public final class FileServerCommand implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger("sluice.file-server");

    @Option(names = "--address", required = true, paramLabel = "ADDRESS",
        converter = Address.Converter.class,
        description = "where to listen: host:port, tls://host:port, ws://host:port[/path], unix:PATH (port 0 picks"
            + " a free one)")
    Address address;

    @Option(names = "--dir", required = true, paramLabel = "DIR", description = "the directory to serve")
    Path dir;

    @Option(names = "--mtu", defaultValue = "0", paramLabel = "N",
        description = "fragment frames larger than this many bytes (0 = no fragmentation, else >= 64)")
    int mtu;

    @Option(names = "--fsync", description = "force each upload to the device (file and directory) before"
        + " answering; off by default")
    boolean fsync;

    @Mixin
    ServerSecurityOptions security = new ServerSecurityOptions();

    @Mixin
    DrainOptions shutdown = new DrainOptions();

    /** Told about every transfer; logs them unless a test replaces it before {@link #start()}. */
    TransferListener listener = TransferListener.logging(log);

    /**
     * Runs the blocking file work: {@code FileIoScheduler.shared()} unless a test sets one before {@link #start()}.
     * Not a field initializer: picocli makes every command when the command line is built, so a bad
     * {@code -Dsluice.files.threads} read there would fail every command with a stack trace.
     */
    Scheduler scheduler;

    @Mixin
    MetricsOptions metrics = new MetricsOptions();

    @Spec
    CommandSpec spec;

    /** Validates the options and starts the server; the caller owns the returned server. */
    public CloseableServer start() {
        ServedDirectory served = servedDirectory();
        ServerTransport transport;
        try {
            shutdown.check();
            transport = security.transport("--address", address, null);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        // A bad -Dsluice.files.threads is a run-time failure (exit 1, one line): a JVM setting, not an option.
        // Checked here, before anything starts, even should the shared scheduler exist already.
        FileIoScheduler.sharedThreads();
        Scheduler files = scheduler != null ? scheduler : FileIoScheduler.shared();
        SluiceMetrics meters = metrics.start("file-server");
        TransferListener heard = meters == null ? listener : new TransferMeters(listener, meters.registry());
        RSocketServer server = security.apply(RSocketServer.create(FileService.acceptor(served, fsync, files,
            heard)));
        CloseableServer running;
        try {
            server.fragment(mtu);
        } catch (IllegalArgumentException e) {
            metrics.close();
            throw new ParameterException(spec.commandLine(), OptionMessage.of("--mtu", e.getMessage()));
        }
        try {
            running = metrics.apply(server).bind(transport).block();
        } catch (IllegalArgumentException e) {
            metrics.close();
            throw new ParameterException(spec.commandLine(), e.getMessage());
        } catch (RuntimeException e) {
            metrics.close();
            throw e;
        }
        metrics.closeWhen(running.onClose());
        String warning = security.warning(address);
        if (warning != null) {
            log.warn(warning);
        }
        Address bound = running.address() instanceof InetSocketAddress a ? address.withPort(a.getPort()) : address;
        log.info("file-server listening on {} {}, serving {} (mtu {}, fsync {}, drain timeout {} ms, metrics {})",
            bound, security.describe(bound), served.root(), mtu == 0 ? "off" : mtu, fsync ? "on" : "off",
            shutdown.timeout().toMillis(), metrics.describe());
        return running;
    }

    private ServedDirectory servedDirectory() {
        try {
            ServedDirectory served = new ServedDirectory(dir);
            if (!Files.isWritable(served.root())) {
                throw new ParameterException(spec.commandLine(), "--dir is not writable: '" + dir + "'");
            }
            return served;
        } catch (NoSuchFileException e) {
            throw new ParameterException(spec.commandLine(), "--dir does not exist: '" + dir + "'");
        } catch (NotDirectoryException e) {
            throw new ParameterException(spec.commandLine(), "--dir is not a directory: '" + dir + "'");
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), "--dir cannot be served: '" + dir + "': " + e);
        }
    }

    @Override
    public Integer call() throws Exception {
        CloseableServer running = start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            drain(running);
            stopped.countDown();
        }, "sluice-shutdown"));
        running.onClose().block();
        stopped.await();
        return 0;
    }

    /** What the shutdown hook does: says so, then closes gracefully, waiting up to {@code --drain-timeout}. */
    void drain(CloseableServer running) {
        shutdown.drain(running, log);
    }
}
