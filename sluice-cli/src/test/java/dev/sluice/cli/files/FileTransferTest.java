package dev.sluice.cli.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.cli.CliRun;
import dev.sluice.testkit.Stderr;
import dev.sluice.cli.files.internal.Checksum;
import dev.sluice.cli.files.internal.ServedDirectory;
import dev.sluice.cli.files.internal.TransferClient;
import dev.sluice.cli.files.internal.TransferProtocol;
import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.exceptions.RejectedException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * {@code file-server}, {@code upload} and {@code download} end to end over loopback TCP: round trips, the
 * directory's confinement, and what failed, cancelled and lost uploads leave behind (nothing).
 */
class FileTransferTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final int CHUNK = 64 * 1024;
    /** Bounded waits: 2,000 polls of 10 ms. */
    private static final int MAX_POLLS = 2_000;
    private static final String TEMP_NAMES =
        "names starting with '" + ServedDirectory.TEMP_PREFIX + "' are the server's temporary files";
    private static final String ABSOLUTE =
        "absolute names are not allowed; give a path relative to the served directory";

    @TempDir
    Path served;

    @TempDir
    Path outside;

    @TempDir
    Path local;

    private final RecordingListener events = new RecordingListener();
    private final List<Disposable> toDispose = new ArrayList<>();
    private CloseableServer server;

    @AfterEach
    void stop() throws IOException {
        toDispose.forEach(Disposable::dispose);
        if (server != null) {
            server.dispose();
        }
        deleteLinks(served);
    }

    /** Removes the links to {@code outside}, so that JUnit does not warn about them when it cleans up. */
    static void deleteLinks(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : files.filter(Files::isSymbolicLink).toList()) {
                Files.delete(p);
            }
        }
    }

    // --- round trips -----------------------------------------------------------------------------------------

    @Test
    void aFewMebibytesRoundTripThroughTheCommandsWithMatchingChecksums() throws IOException {
        startServer();
        int size = 3 * 1024 * 1024 + 12_345; // not a multiple of the chunk size
        Path file = randomFile(local.resolve("data.bin"), size, 1);
        String sha = sha256(file);

        String up = CliRun.run("upload", "--target", target(), file.toString(), "--name", "in/data.bin");

        assertThat(up).startsWith("0|").contains("uploaded " + file)
            .contains("as 'in/data.bin': " + size + " bytes").endsWith("sha256 " + sha + " verified\n");
        assertThat(up.lines()).as("one line when not on a terminal").hasSize(1);
        assertThat(served.resolve("in/data.bin")).hasSameBinaryContentAs(file);
        assertThat(events.next()).isEqualTo("stored in/data.bin " + size + " " + sha);

        Path back = local.resolve("back.bin");
        String down = CliRun.run("download", "--target", target(), "in/data.bin", "--output", back.toString());

        assertThat(down).startsWith("0|").contains("downloaded 'in/data.bin'").contains(size + " bytes")
            .endsWith("sha256 " + sha + " verified\n");
        assertThat(back).hasSameBinaryContentAs(file);
        assertThat(events.next()).isEqualTo("sent in/data.bin " + size + " " + sha);
        assertThat(listing(served)).as("no temporary file left").containsExactly("in", "in/data.bin");
        assertThat(listing(local)).containsExactly("back.bin", "data.bin");
    }

    @Test
    void anEmptyFileRoundTripsAndAnUploadReplacesTheFileOfItsName() throws IOException {
        startServer();
        Files.writeString(served.resolve("notes.txt"), "old content");
        Path empty = Files.createFile(local.resolve("empty"));
        String emptySha = sha256(empty);

        assertThat(CliRun.run("upload", "--target", target(), empty.toString(), "--name", "notes.txt"))
            .startsWith("0|").contains("0 bytes (0 B)");
        assertThat(served.resolve("notes.txt")).isEmptyFile();
        assertThat(events.next()).isEqualTo("stored notes.txt 0 " + emptySha);

        Path back = local.resolve("back");
        assertThat(CliRun.run("download", "--target", target(), "notes.txt", "--output", back.toString()))
            .startsWith("0|").contains("sha256 " + emptySha + " verified");
        assertThat(back).isEmptyFile();
    }

    @Test
    void fragmentedFramesRoundTripToo() throws IOException {
        startServer("--mtu", "256");
        Path file = randomFile(local.resolve("f.bin"), 300_000, 2);
        TransferClient client = client(RSocketConnector.create().fragment(256));

        Checksum stored = client.upload(file, "f.bin", n -> { }).block(TIMEOUT);
        Path back = local.resolve("back.bin");
        AtomicLong announced = new AtomicLong(-1);
        AtomicLong received = new AtomicLong();
        Checksum downloaded = client.download("f.bin", back, announced::set, received::addAndGet).block(TIMEOUT);

        assertThat(stored).isEqualTo(new Checksum(300_000, sha256(file)));
        assertThat(downloaded).isEqualTo(stored);
        assertThat(back).hasSameBinaryContentAs(file);
        assertThat(announced).hasValue(300_000);
        assertThat(received).hasValue(300_000);
    }

    @Test
    void theProtocolTakesContentInTheFirstPayloadAndANameInTheDataOfADownloadRequest() {
        startServer();
        Connection c = connect(RSocketConnector.create());
        Flux<Payload> upload = Flux.concat(
            Mono.fromSupplier(() -> Payload.create(ascii("hello, "), ascii("greeting.txt"))),
            Mono.fromSupplier(() -> Payload.create(ascii("world"))));

        List<String> answer = c.requestChannel(upload).map(FileTransferTest::text).collectList().block(TIMEOUT);
        List<String> download = c.requestStream(Payload.create("greeting.txt")).map(FileTransferTest::describe)
            .collectList().block(TIMEOUT);

        String sha = HexFormat.of().formatHex(sha256("hello, world".getBytes(StandardCharsets.US_ASCII)));
        assertThat(answer).containsExactly("12 " + sha);
        assertThat(served.resolve("greeting.txt")).hasContent("hello, world");
        assertThat(download).containsExactly("metadata=12 data=", "data=hello, world",
            "metadata=12 " + sha + " data=");
    }

    @Test
    void aRequestWithoutANameIsRefused() {
        startServer();
        Connection c = connect(RSocketConnector.create());

        // Empty metadata is there, and names nothing (the data is content, not a name).
        assertThatThrownBy(() -> c.requestChannel(Mono.fromSupplier(() -> Payload.create("content", "")))
            .blockLast(TIMEOUT)).isInstanceOf(RejectedException.class)
            .hasMessage("no file name: the request's metadata (or, without metadata, its data) must hold it");
        assertThatThrownBy(() -> c.requestStream(Payload.create("")).blockLast(TIMEOUT))
            .isInstanceOf(RejectedException.class).hasMessageStartingWith("no file name");
        assertThat(listing(served)).isEmpty();
    }

    // --- confinement -----------------------------------------------------------------------------------------

    @Test
    void uploadsLeavingTheDirectoryAreRefusedAndWriteNothingAnywhere() throws IOException {
        startServer();
        Files.writeString(outside.resolve("target.bin"), "secret");
        Files.createSymbolicLink(served.resolve("linkdir"), outside);
        Files.createSymbolicLink(served.resolve("linkfile.bin"), outside.resolve("target.bin"));
        Path file = randomFile(local.resolve("payload.bin"), 10_000, 3);
        TransferClient client = client(RSocketConnector.create());

        // name -> the reason the server must quote
        String[][] rows = {
            {"../escape.bin", "'..' is not allowed in a name"},
            {"a/../../escape.bin", "'..' is not allowed in a name"},
            {outside.resolve("abs.bin").toString(), ABSOLUTE},
            {"linkdir/escape.bin", "it leads out of the served directory through a symbolic link"},
            {"linkfile.bin", "it is a symbolic link leading out of the served directory"},
            {ServedDirectory.TEMP_PREFIX + "x.tmp", TEMP_NAMES},
        };
        for (String[] row : rows) {
            assertThatThrownBy(() -> client.upload(file, row[0], n -> { }).block(TIMEOUT)).as(row[0])
                .isInstanceOf(RejectedException.class)
                .hasMessage("refused " + ServedDirectory.quote(row[0]) + ": " + row[1]);
            assertThat(events.next()).as(row[0]).startsWith("upload aborted " + row[0] + ": refused");
        }

        assertThat(listing(outside)).containsExactly("target.bin");
        assertThat(outside.resolve("target.bin")).hasContent("secret");
        assertThat(listing(served)).containsExactly("linkdir", "linkfile.bin");
        assertThat(events.poll()).isNull();
    }

    @Test
    void downloadsLeavingTheDirectoryAreRefused() throws IOException {
        startServer();
        Files.writeString(outside.resolve("target.bin"), "secret");
        Files.createSymbolicLink(served.resolve("linkdir"), outside);
        Files.createSymbolicLink(served.resolve("linkfile.bin"), outside.resolve("target.bin"));
        Files.createDirectory(served.resolve("sub"));
        TransferClient client = client(RSocketConnector.create());

        String[][] rows = {
            {"../target.bin", "'..' is not allowed in a name"},
            {outside.resolve("target.bin").toString(), ABSOLUTE},
            {"linkdir/target.bin", "it leads out of the served directory through a symbolic link"},
            {"linkfile.bin", "it leads out of the served directory through a symbolic link"},
            {"sub", "it is not a regular file"},
        };
        for (String[] row : rows) {
            Path out = local.resolve("out.bin");
            assertThatThrownBy(() -> client.download(row[0], out, n -> { }, n -> { }).block(TIMEOUT)).as(row[0])
                .isInstanceOf(RejectedException.class)
                .hasMessage("refused " + ServedDirectory.quote(row[0]) + ": " + row[1]);
            assertThat(events.next()).as(row[0]).startsWith("download aborted " + row[0] + ": refused");
            assertThat(listing(local)).as("nothing written locally for " + row[0]).isEmpty();
        }
    }

    @Test
    void aRefusedUploadIsOneLineAndExitCodeOneFromTheCommand() throws IOException {
        startServer();
        Path file = randomFile(local.resolve("x.bin"), 100, 4);

        String out = CliRun.run("upload", "--target", target(), file.toString(), "--name", "../x.bin");

        assertThat(out).isEqualTo("1|sluice upload: server error REJECTED: refused '../x.bin': '..' is not"
            + " allowed in a name\n");
    }

    // --- errors ------------------------------------------------------------------------------------------------

    @Test
    void downloadOfAMissingFileIsAClearErrorAndWritesNothing() {
        startServer();
        Path out = local.resolve("missing.bin");

        String result = CliRun.run("download", "--target", target(), "missing.bin", "--output", out.toString());

        assertThat(result).isEqualTo("1|sluice download: server error APPLICATION_ERROR: no such file:"
            + " 'missing.bin'\n");
        assertThat(listing(local)).as("neither the output nor a temporary file").isEmpty();
        assertThat(events.next()).startsWith("download aborted missing.bin: no such file: 'missing.bin'");
    }

    @Test
    void connectionRefusedIsOneLineAndExitCodeOne() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // closed again: nothing listens there now
        }
        Path file = randomFile(local.resolve("x.bin"), 100, 5);

        String out = CliRun.run("upload", "--target", "127.0.0.1:" + port, file.toString());

        assertThat(out).startsWith("1|sluice upload: cannot connect to 127.0.0.1:" + port).doesNotContain("\tat ");
        assertThat(out.lines()).hasSize(1);
    }

    @Test
    void checksumMismatchesFailBothCommandsAndLeaveNoDownload() throws IOException {
        // A server that answers with a checksum of something else.
        Checksum wrong = new Checksum(3, "0".repeat(64));
        dev.sluice.core.RSocket liar = new dev.sluice.core.RSocket() {
            @Override
            public Flux<Payload> requestChannel(org.reactivestreams.Publisher<Payload> payloads) {
                return Flux.from(payloads).doOnNext(Payload::release)
                    .then(Mono.fromSupplier(() -> TransferProtocol.uploadAnswer(wrong))).flux();
            }

            @Override
            public Flux<Payload> requestStream(Payload request) {
                request.release();
                return Flux.defer(() -> Flux.just(TransferProtocol.downloadHeader(3), Payload.create("abc"),
                    TransferProtocol.downloadTrailer(wrong)));
            }
        };
        server = dev.sluice.core.RSocketServer.create(dev.sluice.core.SocketAcceptor.with(liar))
            .bind(dev.sluice.transport.netty.TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        Path file = randomFile(local.resolve("x.bin"), 1000, 6);

        String up = CliRun.run("upload", "--target", target(), file.toString());
        Path out = local.resolve("y.bin");
        String down = CliRun.run("download", "--target", target(), "y.bin", "--output", out.toString());

        assertThat(up).isEqualTo("1|sluice upload: checksum mismatch: sent 1000 " + sha256(file)
            + ", the server stored " + wrong + "\n");
        String abc = HexFormat.of().formatHex(sha256("abc".getBytes(StandardCharsets.UTF_8)));
        assertThat(down).isEqualTo("1|sluice download: checksum mismatch: received 3 " + abc
            + ", the server sent " + wrong + "\n");
        assertThat(listing(local)).as("no output, no temporary file").containsExactly("x.bin");
    }

    // --- uploads that do not complete --------------------------------------------------------------------------

    @Test
    void anUploadTheClientCancelsMidwayLeavesNeitherTheFileNorATemporaryFile() throws IOException {
        startServer();
        Connection c = connect(RSocketConnector.create());
        Disposable upload = c.requestChannel(endlessUpload("big.bin", new AtomicLong()))
            .subscribe(Payload::release, e -> { });
        toDispose.add(upload);
        awaitTemporaryFileOf(4 * CHUNK);

        upload.dispose();

        assertThat(events.next()).isEqualTo("upload aborted big.bin: cancelled by the client");
        assertThat(listing(served)).isEmpty();
    }

    @Test
    void anUploadTheClientFailsMidwayLeavesNeitherTheFileNorATemporaryFile() throws IOException {
        startServer();
        Connection c = connect(RSocketConnector.create());
        Flux<Payload> failing = Flux.concat(Mono.fromSupplier(() -> TransferProtocol.uploadHead("big.bin")),
            Flux.range(0, 40).map(i -> chunk()), Flux.error(new IllegalStateException("source disk on fire")));
        AtomicReference<Throwable> clientSaw = new AtomicReference<>();

        List<Payload> answers = c.requestChannel(failing).doOnError(clientSaw::set).onErrorResume(e -> Flux.empty())
            .collectList().block(TIMEOUT);

        assertThat(answers).isEmpty();
        assertThat(clientSaw.get()).hasMessage("source disk on fire");
        assertThat(events.next()).isEqualTo("upload aborted big.bin: the client failed the upload: source disk on"
            + " fire");
        assertThat(listing(served)).isEmpty();
    }

    @Test
    void anUploadWhoseConnectionIsLostLeavesNeitherTheFileNorATemporaryFile() throws IOException {
        startServer();
        Connection c = connect(RSocketConnector.create());
        toDispose.add(c.requestChannel(endlessUpload("big.bin", new AtomicLong())).subscribe(Payload::release,
            e -> { }));
        awaitTemporaryFileOf(4 * CHUNK);

        c.dispose();

        assertThat(events.next()).startsWith("upload aborted big.bin: the connection was lost: ");
        assertThat(listing(served)).isEmpty();
    }

    @Test
    void whileTheDiskStallsTheClientIsAskedForNoMoreThanTheWritersWindow() throws Exception {
        ExecutorService disk = Executors.newSingleThreadExecutor();
        CountDownLatch stall = new CountDownLatch(1);
        try {
            startServer(Schedulers.fromExecutorService(disk));
            Connection c = connect(RSocketConnector.create());
            AtomicLong sent = new AtomicLong();
            toDispose.add(c.requestChannel(endlessUpload("big.bin", sent)).subscribe(Payload::release, e -> { }));
            awaitTemporaryFileOf(16 * CHUNK);

            // The writer's next run queues behind this task: the disk "stalls" while the client keeps its credits.
            disk.execute(() -> await(stall));
            awaitStable(sent);
            long sentChunks = sent.get();
            long writtenChunks = temporaryFileSize() / CHUNK;

            // The writer keeps at most 1 MiB outstanding (WriteOptions' default): 16 chunks of 64 KiB.
            assertThat(sentChunks - writtenChunks).as("chunks sent but not written (sent %d, written %d)",
                sentChunks, writtenChunks).isBetween(0L, 16L);
            assertThat(writtenChunks).isGreaterThanOrEqualTo(16);
        } finally {
            stall.countDown();
            toDispose.forEach(Disposable::dispose);
            assertThat(events.next()).startsWith("upload aborted big.bin: ");
            disk.shutdown();
            assertThat(disk.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(listing(served)).isEmpty();
    }

    /** What the shutdown hook does: one line saying how long it drains, then a close bounded by --drain-timeout. */
    @Test
    void onShutdownItSaysHowLongItDrains() {
        FileServerCommand cmd = new FileServerCommand();
        new CommandLine(cmd).parseArgs("--address", "127.0.0.1:0", "--dir", served.toString());
        assertThat(cmd.shutdown.timeout()).as("the default, as server's and proxy's").isEqualTo(Duration.ofSeconds(5));
        new CommandLine(cmd).parseArgs("--address", "127.0.0.1:0", "--dir", served.toString(), "--drain-timeout",
            "400ms");
        cmd.listener = events;
        server = cmd.start();
        CloseableServer running = server;
        assertThat(Stderr.during(() -> cmd.drain(running)))
            .contains("[INFO] file-server - shutting down: draining connections for up to 400 ms");
        running.onClose().block(TIMEOUT);
    }

    // --- helpers -----------------------------------------------------------------------------------------------

    private void startServer(String... extra) {
        start(null, extra);
    }

    private void startServer(reactor.core.scheduler.Scheduler scheduler) {
        start(scheduler);
    }

    private void start(reactor.core.scheduler.Scheduler scheduler, String... extra) {
        FileServerCommand cmd = new FileServerCommand();
        List<String> args = new ArrayList<>(List.of("--address", "127.0.0.1:0", "--dir", served.toString()));
        args.addAll(List.of(extra));
        new CommandLine(cmd).parseArgs(args.toArray(String[]::new));
        cmd.listener = events;
        if (scheduler != null) {
            cmd.scheduler = scheduler;
        }
        server = cmd.start();
    }

    private static ByteBuf ascii(String s) {
        ByteBuf b = PooledByteBufAllocator.DEFAULT.directBuffer(s.length());
        b.writeCharSequence(s, StandardCharsets.US_ASCII);
        return b;
    }

    private static String text(Payload p) {
        try {
            return p.dataUtf8();
        } finally {
            p.release();
        }
    }

    /** "metadata=... data=..." (no metadata part when absent). */
    private static String describe(Payload p) {
        try {
            return (p.hasMetadata() ? "metadata=" + p.metadataUtf8() + " " : "") + "data=" + p.dataUtf8();
        } finally {
            p.release();
        }
    }

    private String target() {
        return "127.0.0.1:" + server.port();
    }

    private Connection connect(RSocketConnector connector) {
        Connection c = connector.connect(dev.sluice.transport.netty.TcpClientTransport.create("127.0.0.1",
            server.port())).block(TIMEOUT);
        toDispose.add(c);
        return c;
    }

    private TransferClient client(RSocketConnector connector) {
        return new TransferClient(connect(connector), Schedulers.boundedElastic());
    }

    /** The head naming {@code name}, then 64 KiB chunks for as long as they are asked for, counted in {@code sent}. */
    private static Flux<Payload> endlessUpload(String name, AtomicLong sent) {
        return Flux.concat(Mono.fromSupplier(() -> TransferProtocol.uploadHead(name)),
            Flux.<Payload>generate(sink -> {
                sent.incrementAndGet();
                sink.next(chunk());
            }));
    }

    private static final byte[] CHUNK_BYTES = new byte[CHUNK];

    static {
        new Random(42).nextBytes(CHUNK_BYTES);
    }

    /** A 64 KiB payload in a pooled direct buffer, so that the leak detector tracks it. */
    private static Payload chunk() {
        ByteBuf b = PooledByteBufAllocator.DEFAULT.directBuffer(CHUNK);
        b.writeBytes(CHUNK_BYTES);
        return Payload.create(b);
    }

    private void awaitTemporaryFileOf(long minBytes) throws IOException {
        for (int i = 0; i < MAX_POLLS; i++) {
            if (temporaryFileSize() >= minBytes) {
                return;
            }
            sleep(10);
        }
        throw new AssertionError("no temporary file of " + minBytes + " bytes in " + listing(served));
    }

    /** The size of the one temporary upload file in the served directory, or -1. */
    private long temporaryFileSize() throws IOException {
        try (Stream<Path> files = Files.list(served)) {
            List<Path> temps = files.filter(p -> p.getFileName().toString().startsWith(ServedDirectory.TEMP_PREFIX))
                .toList();
            assertThat(temps.size()).as("temporary files").isLessThanOrEqualTo(1);
            return temps.isEmpty() ? -1 : Files.size(temps.get(0));
        }
    }

    /** Waits until {@code counter} has not moved for 30 polls of 10 ms: the client has used up its credits. */
    private static void awaitStable(AtomicLong counter) {
        long last = -1;
        int still = 0;
        for (int i = 0; i < MAX_POLLS && still < 30; i++) {
            long now = counter.get();
            still = now == last ? still + 1 : 0;
            last = now;
            sleep(10);
        }
        assertThat(still).as("the client stopped sending").isEqualTo(30);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static Path randomFile(Path path, int size, long seed) throws IOException {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return Files.write(path, bytes);
    }

    private static String sha256(Path file) throws IOException {
        return HexFormat.of().formatHex(sha256(Files.readAllBytes(file)));
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    /** Every path under {@code dir}, relative, sorted, with '/' separators. */
    private static List<String> listing(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            return all.filter(p -> !p.equals(dir)).map(p -> dir.relativize(p).toString().replace('\\', '/'))
                .sorted().toList();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
