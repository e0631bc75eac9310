package dev.sluice.transport.netty.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.frame.FrameFlags;
import dev.sluice.frame.FrameType;
import dev.sluice.testkit.ReceivedFrame;
import dev.sluice.testkit.ScriptedPeer;
import dev.sluice.transport.netty.TcpClientTransport;
import io.netty.buffer.ByteBufUtil;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Hooks;

/**
 * A seeded fuzz of a live server: 10,000 mutations of valid frames of every type (bit flips, truncations, inner
 * length changes, trailing bytes, random types, flags and stream ids, garbage) go through the TCP decoder and the
 * engine. Each is followed by a KEEPALIVE with a fresh token, whose echo proves the frame was handled and the
 * connection lives; when the server closes the connection instead, the fuzzer reconnects. Afterwards: no exception
 * escaped (Reactor's dropped-error hook, uncaught handlers and WARN/ERROR logs stay empty, and no connection
 * closed because of an exception rather than a protocol error), nothing leaked (the leak gate), and the server
 * still answers a normal request.
 */
class FrameFuzzTest {

    private static final long SEED = 0x51_1C_E5EEDL;
    private static final int FRAMES = 10_000;
    /** One iteration in this many also sends a frame whose length prefix lies, as the last one on its connection. */
    private static final int FRAMING_LIE_EVERY = 100;

    @Test
    void mutatedFramesNeitherEscapeNorLeakAndTheServerKeepsServing() throws Exception {
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        List<Throwable> uncaught = new CopyOnWriteArrayList<>();
        Hooks.onErrorDropped(dropped::add);
        Hooks.onNextDropped(o -> dropped.add(new IllegalStateException("onNext dropped: " + o)));
        Thread.UncaughtExceptionHandler previousHandler = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> uncaught.add(e));
        PrintStream previousErr = System.err;
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        System.setErr(new PrintStream(new Tee(previousErr, log), true, StandardCharsets.UTF_8));
        Stats stats;
        ServerUnderTest server = ServerUnderTest.start();
        // Fuzzed demand reaches 2^31-2: a stream that long would keep the event loop busy for the whole run.
        server.handler.streamLength = 3;
        try {
            stats = fuzz(server);
            assertServerStillServes(server);
            for (Connection c : server.accepted) {
                c.onClose().block(ServerUnderTest.TIMEOUT);
            }
        } finally {
            server.close();
            System.setErr(previousErr);
            Thread.setDefaultUncaughtExceptionHandler(previousHandler);
            Hooks.resetOnErrorDropped();
            Hooks.resetOnNextDropped();
        }
        System.out.println("fuzz: seed=0x" + Long.toHexString(SEED) + ", " + stats);
        assertThat(stats.handled).isGreaterThanOrEqualTo(FRAMES);
        assertThat(dropped).as("errors and elements dropped by Reactor").isEmpty();
        assertThat(uncaught).as("uncaught exceptions").isEmpty();
        String logged = log.toString(StandardCharsets.UTF_8);
        assertThat(logged.lines().filter(l -> l.contains(" WARN ") || l.contains(" ERROR ")))
            .as("warnings and errors logged during the fuzz:%n%s", logged).isEmpty();
        List<String> escaped = new ArrayList<>();
        for (Connection c : server.accepted) {
            Throwable cause = c.closeCause();
            Throwable root = cause;
            while (root != null && root.getCause() != null) {
                root = root.getCause();
            }
            // A close forced by an exception out of the decoder or the engine shows up as a non-I/O root cause.
            if (root != null && root != cause && !(root instanceof IOException)) {
                escaped.add(c + ": " + cause);
            }
        }
        assertThat(escaped).as("connections closed by an exception that escaped").isEmpty();
        // Every frame type and every kind of mutation was exercised.
        assertThat(stats.kinds.keySet()).containsExactlyInAnyOrder(FrameMutator.Kind.values());
    }

    private static Stats fuzz(ServerUnderTest server) {
        FrameMutator mutator = new FrameMutator(SEED);
        Stats stats = new Stats();
        ScriptedPeer peer = null;
        long token = 0;
        for (int i = 0; stats.handled < FRAMES && i < 2 * FRAMES; i++) {
            if (peer == null) {
                peer = server.connectAndSetup().keepAlivesVisible(true);
                stats.connections++;
            }
            byte[] frame = mutator.next();
            stats.kinds.merge(mutator.lastKind(), 1, Integer::sum);
            if (i % FRAMING_LIE_EVERY == FRAMING_LIE_EVERY - 1) {
                // A prefix that claims more or fewer bytes than follow: the framing is lost, so this is the
                // connection's last frame.
                int claimed = Math.max(0, frame.length + (i % 2 == 0 ? 17 : -3));
                trySend(peer, prefixed(frame, claimed));
                peer.close();
                peer = null;
                stats.framingLies++;
                continue;
            }
            token++;
            if (!trySend(peer, concat(prefixed(frame, frame.length), prefixed(keepAlive(token), -1)))) {
                peer.close();
                peer = null;
                continue;
            }
            stats.handled++;
            boolean echoed;
            try {
                echoed = awaitEcho(peer, token);
            } catch (AssertionError e) {
                throw new AssertionError("no answer after mutation #" + i + " (" + mutator.lastKind() + "): "
                    + ByteBufUtil.hexDump(frame), e);
            }
            if (!echoed) {
                stats.closedByServer++;
                peer.close();
                peer = null;
            }
        }
        if (peer != null) {
            peer.close();
        }
        return stats;
    }

    private static void assertServerStillServes(ServerUnderTest server) {
        try (ScriptedPeer peer = server.connectAndSetup()) {
            ServerUnderTest.ping(peer, 1);
        }
        Connection client = RSocketConnector.create()
            .connect(TcpClientTransport.create("127.0.0.1", server.port())).block(ServerUnderTest.TIMEOUT);
        try {
            Payload reply = client.requestResponse(Payload.create("after the fuzz")).block(ServerUnderTest.TIMEOUT);
            try {
                assertThat(reply.dataUtf8()).isEqualTo("after the fuzz");
            } finally {
                reply.release();
            }
        } finally {
            client.dispose();
            client.onClose().block(ServerUnderTest.TIMEOUT);
        }
    }

    /** Reads until the KEEPALIVE echo carrying {@code token}; false if the server closed the connection first. */
    private static boolean awaitEcho(ScriptedPeer peer, long token) {
        byte[] expected = tokenBytes(token);
        for (ReceivedFrame f; (f = peer.receiveOrEnd()) != null; ) {
            if (f.type() == FrameType.KEEPALIVE && !f.hasFlag(FrameFlags.RESPOND) && f.length() == 14 + 8) {
                byte[] b = f.bytes();
                if (Arrays.equals(b, 14, 22, expected, 0, 8)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean trySend(ScriptedPeer peer, byte[] bytes) {
        try {
            peer.sendRaw(bytes);
            return true;
        } catch (AssertionError e) {
            // The server closed the connection under us (for instance a CONNECTION_CLOSE it just processed).
            return false;
        }
    }

    private static byte[] keepAlive(long token) {
        byte[] f = new byte[14 + 8];
        f[4] = (byte) ((FrameType.KEEPALIVE << 10 | FrameFlags.RESPOND) >>> 8);
        f[5] = (byte) (FrameType.KEEPALIVE << 10 | FrameFlags.RESPOND);
        System.arraycopy(tokenBytes(token), 0, f, 14, 8);
        return f;
    }

    private static byte[] tokenBytes(long token) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (token >>> (56 - 8 * i));
        }
        return b;
    }

    /** The frame behind a 3-byte prefix claiming {@code claimed} bytes (-1: its true length). */
    private static byte[] prefixed(byte[] frame, int claimed) {
        int len = claimed < 0 ? frame.length : claimed;
        byte[] b = new byte[3 + frame.length];
        b[0] = (byte) (len >>> 16);
        b[1] = (byte) (len >>> 8);
        b[2] = (byte) len;
        System.arraycopy(frame, 0, b, 3, frame.length);
        return b;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    /** What the fuzz did, for the log line and the coverage assertion. */
    private static final class Stats {
        final Map<FrameMutator.Kind, Integer> kinds = new EnumMap<>(FrameMutator.Kind.class);
        int handled;
        int connections;
        int closedByServer;
        int framingLies;

        @Override
        public String toString() {
            return "frames handled=" + handled + ", framing lies=" + framingLies + ", connections=" + connections
                + ", closed by the server=" + closedByServer + ", mutations=" + kinds;
        }
    }

    /** Writes to two streams: the real stderr (so the log stays visible) and the capture. */
    private static final class Tee extends OutputStream {
        private final OutputStream a;
        private final OutputStream b;

        Tee(OutputStream a, OutputStream b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public void write(int c) throws IOException {
            a.write(c);
            b.write(c);
        }

        @Override
        public void write(byte[] buf, int off, int len) throws IOException {
            a.write(buf, off, len);
            b.write(buf, off, len);
        }
    }
}
