package dev.sluice.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A {@code redis-server} of the test's own on a free loopback port, without persistence, as sluice-limits-redis's
 * tests start one: {@link #start()}, then {@link #close()}. Tests skip themselves, loudly, when {@code redis-server}
 * is not on the PATH ({@code scripts/setup-redis.sh} installs it).
 */
public final class RedisProcess implements AutoCloseable {

    private static final String SKIP = "SKIPPED: redis-server is not on the PATH, so the --redis tests of sluice-cli"
        + " do NOT run; install it with scripts/setup-redis.sh";
    private static Boolean installed;

    private final int port;
    private final Path log;
    private final Process process;

    private RedisProcess(int port, Path log, Process process) {
        this.port = port;
        this.log = log;
        this.process = process;
    }

    /** Skips the calling test, saying why, unless {@code redis-server} can be run. Asks once per JVM. */
    public static synchronized void assumeInstalled() {
        if (installed == null) {
            try {
                Process p = new ProcessBuilder("redis-server", "--version").redirectErrorStream(true).start();
                p.getInputStream().readAllBytes();
                installed = p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
            } catch (IOException e) {
                installed = false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                installed = false;
            }
            if (!installed) {
                System.err.println("!!!!! " + SKIP);
            }
        }
        Assumptions.assumeTrue(installed, SKIP);
    }

    /** A server on a free loopback port, answering PING. */
    public static RedisProcess start() throws IOException, InterruptedException {
        assumeInstalled();
        IOException last = null;
        // A free port can be taken by someone else before redis binds it: try a few.
        for (int attempt = 0; attempt < 3; attempt++) {
            int port = freePort();
            Path log = Files.createTempFile("redis-" + port + "-", ".log");
            Process p = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no").redirectErrorStream(true).redirectOutput(log.toFile()).start();
            RedisProcess redis = new RedisProcess(port, log, p);
            try {
                redis.awaitPong();
                return redis;
            } catch (IOException e) {
                redis.close();
                last = e;
            }
        }
        throw last;
    }

    /** A loopback port nobody listens on (free when asked). */
    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    /**
     * Sends one command on a fresh connection and returns the first line of the reply ({@code +OK}, {@code :1},
     * ...). Enough for {@code CLIENT PAUSE} and {@code PING}.
     */
    public String command(String... args) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            StringBuilder request = new StringBuilder().append('*').append(args.length).append("\r\n");
            for (String arg : args) {
                request.append('$').append(arg.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(arg)
                    .append("\r\n");
            }
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder line = new StringBuilder();
            // Bounded by the reply's CRLF and the socket's timeout.
            for (int c = in.read(); c >= 0 && c != '\r'; c = in.read()) {
                line.append((char) c);
            }
            return line.toString();
        }
    }

    /** Stops the server (SIGTERM, then SIGKILL if it lingers) and deletes its log. */
    @Override
    public void close() {
        try {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
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

    private void awaitPong() throws IOException, InterruptedException {
        // Bounded: 200 tries, 25 ms apart.
        for (int i = 0; i < 200; i++) {
            if (!process.isAlive()) {
                throw new IOException("redis-server exited with " + process.exitValue() + " on port " + port + ": "
                    + Files.readString(log));
            }
            try {
                if ("+PONG".equals(command("PING"))) {
                    return;
                }
            } catch (IOException e) {
                // Not listening yet.
            }
            Thread.sleep(25);
        }
        throw new IOException("redis-server did not answer PING within 5 s on port " + port);
    }
}
