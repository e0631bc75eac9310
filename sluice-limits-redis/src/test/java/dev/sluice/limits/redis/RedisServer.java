package dev.sluice.limits.redis;

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
 * {@link #start()}, stopped by {@link #close()}. Tests skip themselves, loudly, when {@code redis-server} is not on
 * the PATH ({@code scripts/setup-redis.sh} installs it).
 */
final class RedisServer implements AutoCloseable {

    private static final String BINARY = "redis-server";
    private static final String SKIP = "SKIPPED: redis-server is not on the PATH, so the Redis rate limiter tests do"
            + " NOT run; install it with scripts/setup-redis.sh";
    private static Boolean installed;

    private final int port;
    private final Path log;
    private Process process;
    private Socket socket;

    private RedisServer(int port, Path log) {
        this.port = port;
        this.log = log;
    }

    /** Whether {@code redis-server} can be run: asked once per JVM. */
    static synchronized boolean installed() {
        if (installed == null) {
            installed = probe();
            if (!installed) {
                System.err.println("!!!!! " + SKIP);
            }
        }
        return installed;
    }

    /** Skips the calling test, saying why, unless {@code redis-server} can be run. */
    static void assumeInstalled() {
        Assumptions.assumeTrue(installed(), SKIP);
    }

    private static boolean probe() {
        try {
            Process p = new ProcessBuilder(BINARY, "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** For a program rather than a test: exits with the same loud message unless {@code redis-server} runs. */
    static void assumeInstalledOrExit() {
        try {
            assumeInstalled();
        } catch (TestAbortedException e) {
            System.exit(2);
        }
    }

    /** A server on a free loopback port, answering PING. */
    static RedisServer start() throws IOException, InterruptedException {
        IOException last = null;
        // A free port can be taken by someone else before redis binds it: try a few.
        for (int attempt = 0; attempt < 3; attempt++) {
            int port;
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = s.getLocalPort();
            }
            RedisServer server = new RedisServer(port, Files.createTempFile("redis-" + port + "-", ".log"));
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

    int port() {
        return port;
    }

    String uri() {
        return "redis://127.0.0.1:" + port;
    }

    long pid() {
        return process.pid();
    }

    /** Starts the server again on the same port after {@link #kill()}. */
    void restart() throws IOException, InterruptedException {
        launch();
    }

    /** Stops the server at once (SIGKILL): clients see their connection reset. */
    void kill() throws InterruptedException {
        dropSocket();
        if (process != null) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** Freezes the server (SIGSTOP): connections stay open but nothing is answered, as with a hung server. */
    void pause() throws IOException, InterruptedException {
        signal("-STOP");
    }

    /** Thaws a {@link #pause() paused} server (SIGCONT). */
    void resume() throws IOException, InterruptedException {
        signal("-CONT");
    }

    /**
     * Sends one command over the server's test connection and returns its reply: a String for a simple or bulk
     * string, a Long for an integer, a List for an array, null for a nil. An error reply throws.
     */
    synchronized Object command(String... args) throws IOException {
        if (socket == null) {
            socket = new Socket(InetAddress.getLoopbackAddress(), port);
            socket.setSoTimeout(10_000);
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

    /** Stops the server (SIGTERM, then SIGKILL if it lingers) and deletes its log. */
    @Override
    public void close() {
        dropSocket();
        try {
            if (process != null) {
                process.destroy();
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
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

    private void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", signal, Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IOException("kill " + signal + " " + process.pid() + " failed");
        }
    }

    private static Object read(InputStream in) throws IOException {
        String line = readLine(in);
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
        for (;;) {
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
