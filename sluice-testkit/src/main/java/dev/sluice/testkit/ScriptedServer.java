package dev.sluice.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;

/**
 * A listening socket on the loopback interface whose connections become {@link ScriptedPeer}s: the scripted
 * stand-in for a server, to test a client's behaviour against a peer that misbehaves on purpose.
 *
 * <p>Not thread-safe: one test thread accepts and drives the peers.
 */
public final class ScriptedServer implements AutoCloseable {

    private final ServerSocket socket;
    private final Duration readTimeout;

    private ScriptedServer(ServerSocket socket, Duration readTimeout) {
        this.socket = socket;
        this.readTimeout = readTimeout;
    }

    /** Listens on 127.0.0.1 on a free port; accepted peers read with a 10 s timeout. */
    public static ScriptedServer start() {
        return start(Duration.ofSeconds(10));
    }

    /** Listens on 127.0.0.1 on a free port; accepts, and the accepted peers' reads, wait {@code readTimeout}. */
    public static ScriptedServer start(Duration readTimeout) {
        try {
            ServerSocket s = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
            s.setSoTimeout((int) Math.min(Integer.MAX_VALUE, readTimeout.toMillis()));
            return new ScriptedServer(s, readTimeout);
        } catch (IOException e) {
            throw new AssertionError("cannot listen on the loopback interface: " + e, e);
        }
    }

    /** The bound port. */
    public int port() {
        return socket.getLocalPort();
    }

    /** Waits for the next connection; fails after the read timeout. */
    public ScriptedPeer accept() {
        Socket s = null;
        try {
            s = socket.accept();
            return ScriptedPeer.accepted(s, readTimeout);
        } catch (SocketTimeoutException e) {
            throw new AssertionError("no connection within " + readTimeout.toMillis() + " ms", e);
        } catch (IOException e) {
            if (s != null) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // best effort
                }
            }
            throw new AssertionError("accept failed: " + e, e);
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing is best effort
        }
    }
}
