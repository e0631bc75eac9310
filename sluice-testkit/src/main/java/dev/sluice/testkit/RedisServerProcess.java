package dev.sluice.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.opentest4j.TestAbortedException;

/**
 * A {@code redis-server} of the test's own, on a free loopback port, with no persistence: started by
 * {@link #start()}, stopped by {@link #close()}, and killed, frozen or restarted in between to play an outage.
 *
 * <p><b>When redis-server is missing</b> the tests that need it skip themselves, loudly: {@link #start()} and
 * {@link #assumeInstalled()} abort the calling test with a JUnit assumption that says why, and the first time a JVM
 * finds it missing it prints a line starting with {@code !!!!! SKIPPED} to standard error, so that a green build
 * that ran none of those tests does not pass unnoticed. {@code scripts/setup-redis.sh} installs it.
 *
 * <pre>{@code
 * try (RedisServerProcess redis = RedisServerProcess.start()) {
 *     RedisRateLimiter limiter = RedisRateLimiter.builder(100, 10).redis(redis.uri()).build();
 *     ...
 * }
 * }</pre>
 *
 * <p>Thread-safety: {@link #command} may be called from any thread (it is serialized on the one test connection);
 * start, stop, kill, pause and restart from the test's thread.
 */
public final class RedisServerProcess implements AutoCloseable {

    private static final String BINARY = "redis-server";
    private static final String SKIP = "SKIPPED: redis-server is not on the PATH, so the tests that need a real Redis"
        + " do NOT run; install it with scripts/setup-redis.sh";
    /** How long a command, the version probe or a stop may take before the test gives up on the server. */
    private static final int WAIT_SECONDS = 10;
    private static Boolean installed;

    private final int port;
    private final Path log;
    private Process process;
    private Socket socket;

    private RedisServerProcess(int port, Path log) {
        this.port = port;
        this.log = log;
    }

    /** Whether {@code redis-server} can be run; asked once per JVM, which says so on standard error if not. */
    public static synchronized boolean installed() {
        if (installed == null) {
            installed = probe();
            if (!installed) {
                System.err.println("!!!!! " + SKIP);
            }
        }
        return installed;
    }

    /** Skips the calling test, saying why, unless {@code redis-server} can be run. */
    public static void assumeInstalled() {
        Assumptions.assumeTrue(installed(), SKIP);
    }

    /** For a program rather than a test: exits with status 2, after the same loud line, unless it can be run. */
    public static void assumeInstalledOrExit() {
        try {
            assumeInstalled();
        } catch (TestAbortedException e) {
            System.exit(2);
        }
    }

    /**
     * A server on a free loopback port, answering PING. Skips the calling test unless {@code redis-server} can be
     * run (see {@link #assumeInstalled()}).
     *
     * @throws IOException if no server came up in three tries, each on another port
     */
    public static RedisServerProcess start() throws IOException, InterruptedException {
        assumeInstalled();
        IOException last = null;
        // A free port can be taken by someone else before redis binds it: try a few.
        for (int attempt = 0; attempt < 3; attempt++) {
            int port = freePort();
            RedisServerProcess server = new RedisServerProcess(port, Files.createTempFile("redis-" + port + "-",
                ".log"));
            try {
                server.launch();
                return server;
            } catch (IOException e) {
                server.close();
                last = e;
            }
        }
        throw last;
    }

    /** A loopback port nobody listens on when asked: where a client finds no Redis. */
    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** The port it listens on, on 127.0.0.1; it stays the same across {@link #restart()}. */
    public int port() {
        return port;
    }

    /** {@code redis://127.0.0.1:<port>}. */
    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    /** The server's process id. */
    public long pid() {
        return process.pid();
    }

    /** Starts the server again on the same port after {@link #kill()}; returns once it answers PING. */
    public void restart() throws IOException, InterruptedException {
        launch();
    }

    /** Stops the server at once (SIGKILL): clients see their connection reset. */
    public void kill() throws InterruptedException {
        dropSocket();
        if (process != null) {
            process.destroyForcibly();
            process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS);
        }
    }

    /** Freezes the server (SIGSTOP): connections stay open but nothing is answered, as with a hung server. */
    public void pause() throws IOException, InterruptedException {
        signal("-STOP");
    }

    /** Thaws a {@link #pause() paused} server (SIGCONT). */
    public void resume() throws IOException, InterruptedException {
        signal("-CONT");
    }

    /**
     * Sends one command over the server's test connection (opened on first use, reopened after a failure) and
     * returns its reply: a String for a simple or bulk string ({@code "OK"}, {@code "PONG"}), a Long for an integer,
     * a List for an array, null for a nil. Waits at most 10 s for the reply.
     *
     * @throws IOException on an error reply ({@code "redis error: ..."}) or a broken connection
     */
    public synchronized Object command(String... args) throws IOException {
        if (socket == null) {
            socket = new Socket(InetAddress.getLoopbackAddress(), port);
            socket.setSoTimeout(WAIT_SECONDS * 1000);
            socket.setTcpNoDelay(true);
        }
        try {
            OutputStream out = socket.getOutputStream();
            StringBuilder request = new StringBuilder().append('*').append(args.length).append("\r\n");
            for (String arg : args) {
                request.append('$').append(arg.getBytes(StandardCharsets.UTF_8).length).append("\r\n")
                    .append(arg).append("\r\n");
            }
            out.write(request.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            return read(socket.getInputStream());
        } catch (IOException e) {
            // The next command opens a fresh connection.
            dropSocket();
            throw e;
        }
    }

    /** Stops the server (SIGTERM, then SIGKILL if it lingers) and deletes its log. */
    @Override
    public void close() {
        dropSocket();
        try {
            if (process != null) {
                process.destroy();
                if (!process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(WAIT_SECONDS, TimeUnit.SECONDS);
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try {
            Files.deleteIfExists(log);
        } catch (IOException e) {
            // A temporary file left behind is harmless.
        }
    }

    private static boolean probe() {
        try {
            Process p = new ProcessBuilder(BINARY, "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(WAIT_SECONDS, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void launch() throws IOException, InterruptedException {
        process = new ProcessBuilder(BINARY, "--port", Integer.toString(port), "--bind", "127.0.0.1",
            "--save", "", "--appendonly", "no", "--protected-mode", "yes")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
        // Bounded: 200 tries, 25 ms apart.
        for (int i = 0; i < 200; i++) {
            if (!process.isAlive()) {
                throw new IOException("redis-server exited with " + process.exitValue() + " on port " + port + ": "
                    + Files.readString(log));
            }
            try {
                if ("PONG".equals(command("PING"))) {
                    return;
                }
            } catch (IOException e) {
                // Not listening yet.
            }
            Thread.sleep(25);
        }
        throw new IOException("redis-server did not answer PING within 5 s on port " + port);
    }

    private synchronized void dropSocket() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // Closing a broken socket can fail; it is gone either way.
            }
            socket = null;
        }
    }

    private void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", signal, Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(WAIT_SECONDS, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IOException("kill " + signal + " " + process.pid() + " failed");
        }
    }

    private static Object read(InputStream in) throws IOException {
        String line = readLine(in);
        if (line.isEmpty()) {
            throw new IOException("empty reply line");
        }
        char type = line.charAt(0);
        String rest = line.substring(1);
        switch (type) {
            case '+':
                return rest;
            case '-':
                throw new IOException("redis error: " + rest);
            case ':':
                return Long.parseLong(rest);
            case '$': {
                int length = Integer.parseInt(rest);
                if (length < 0) {
                    return null;
                }
                byte[] bytes = in.readNBytes(length + 2);
                if (bytes.length < length + 2) {
                    throw new IOException("connection closed mid-reply: " + bytes.length + " of " + (length + 2)
                        + " bytes");
                }
                return new String(bytes, 0, length, StandardCharsets.UTF_8);
            }
            case '*': {
                int count = Integer.parseInt(rest);
                if (count < 0) {
                    return null;
                }
                Object[] items = new Object[count];
                for (int i = 0; i < count; i++) {
                    items[i] = read(in);
                }
                return Arrays.asList(items);
            }
            default:
                throw new IOException("unexpected reply: " + line);
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        // Bounded by the reply: every RESP line ends with CRLF, and the socket times out.
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("connection closed mid-reply");
            }
            if (c == '\r') {
                in.read();
                return line.toString();
            }
            line.append((char) c);
        }
    }
}
