package dev.sluice.testkit;

import io.netty.buffer.ByteBuf;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A scripted RSocket peer over a plain TCP socket: a test writes exactly the frames it wants (built with any
 * encoder, or as raw bytes to break the framing itself) and asserts on the frames that come back, one by one.
 * This is how the conformance tests drive the engine with input no well-behaved implementation would send.
 *
 * <p>Frames are read in order with a timeout (default 10 s) that only bounds a broken test: the assertions never
 * depend on timing. KEEPALIVE frames are skipped by the readers unless {@link #keepAlivesVisible(boolean)} says
 * otherwise, because a peer's keep-alive timer would otherwise interleave with any script; they are still counted.
 *
 * <p>A check that something was <em>ignored</em> is written as: send the frame to ignore, then a request that
 * must be answered, and expect the answer as the very next frame. TCP keeps order and the engine answers frames in
 * order, so any reaction to the ignored frame would have arrived first.
 *
 * <p>Not thread-safe: one test thread drives a peer. Failures are {@link AssertionError}s that quote what was
 * received so far.
 */
public final class ScriptedPeer implements AutoCloseable {

    private static final int LENGTH_PREFIX = 3;
    private static final int KEEPALIVE = 0x03;
    private static final int ERROR = 0x0B;

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final List<ReceivedFrame> received = new ArrayList<>();
    private boolean keepAlivesVisible;
    private int keepAlivesSkipped;
    private boolean eof;

    private ScriptedPeer(Socket socket, Duration readTimeout) throws IOException {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(timeoutMillis(readTimeout));
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /** Connects to {@code host:port} with a 10 s read timeout. */
    public static ScriptedPeer connect(String host, int port) {
        return connect(host, port, Duration.ofSeconds(10));
    }

    /** Connects to {@code host:port}; every read gives up after {@code readTimeout}. */
    public static ScriptedPeer connect(String host, int port, Duration readTimeout) {
        Socket s = new Socket();
        try {
            s.connect(new InetSocketAddress(host, port), timeoutMillis(readTimeout));
            return new ScriptedPeer(s, readTimeout);
        } catch (IOException e) {
            closeQuietly(s);
            throw new AssertionError("cannot connect to " + host + ":" + port + ": " + e, e);
        }
    }

    /** Wraps an accepted socket (see {@link ScriptedServer}). */
    static ScriptedPeer accepted(Socket s, Duration readTimeout) throws IOException {
        return new ScriptedPeer(s, readTimeout);
    }

    /** Whether readers return KEEPALIVE frames (default false: they are skipped and counted). */
    public ScriptedPeer keepAlivesVisible(boolean visible) {
        this.keepAlivesVisible = visible;
        return this;
    }

    /** How many KEEPALIVE frames the readers skipped so far. */
    public int keepAlivesSkipped() {
        return keepAlivesSkipped;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Sending

    /** Sends one frame behind its 3-byte length prefix. Takes ownership of {@code frame} (released here). */
    public ScriptedPeer send(ByteBuf frame) {
        try {
            int len = frame.readableBytes();
            byte[] b = new byte[LENGTH_PREFIX + len];
            b[0] = (byte) (len >>> 16);
            b[1] = (byte) (len >>> 8);
            b[2] = (byte) len;
            frame.getBytes(frame.readerIndex(), b, LENGTH_PREFIX, len);
            return sendRaw(b);
        } finally {
            frame.release();
        }
    }

    /**
     * Sends a frame under a length prefix that claims {@code claimedLength} bytes, whatever the frame holds: for
     * tests of the transport's framing. Takes ownership of {@code frame}.
     */
    public ScriptedPeer sendWithLength(int claimedLength, ByteBuf frame) {
        try {
            byte[] b = new byte[LENGTH_PREFIX + frame.readableBytes()];
            b[0] = (byte) (claimedLength >>> 16);
            b[1] = (byte) (claimedLength >>> 8);
            b[2] = (byte) claimedLength;
            frame.getBytes(frame.readerIndex(), b, LENGTH_PREFIX, frame.readableBytes());
            return sendRaw(b);
        } finally {
            frame.release();
        }
    }

    /** Sends bytes exactly as given: no length prefix is added. */
    public ScriptedPeer sendRaw(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
            return this;
        } catch (IOException e) {
            throw new AssertionError("send failed: " + e + "; received so far: " + received, e);
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Receiving

    /**
     * Waits, up to {@code timeout}, until bytes from the server have arrived, without reading them: for tests of
     * what happens to received but unread bytes.
     */
    public ScriptedPeer awaitUnreadBytes(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (in.available() == 0) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("nothing arrived within " + timeout.toMillis() + " ms");
                }
                Thread.sleep(1);
            }
            return this;
        } catch (IOException e) {
            throw new AssertionError("waiting for bytes failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** The next frame (KEEPALIVE skipped unless visible); fails on timeout or end of stream. */
    public ReceivedFrame receive() {
        ReceivedFrame f = readFrame();
        if (f == null) {
            throw new AssertionError("connection closed by the peer while a frame was expected; received so far: "
                + received);
        }
        return f;
    }

    /** The next frame (KEEPALIVE skipped unless visible), or null once the peer has closed the connection. */
    public ReceivedFrame receiveOrEnd() {
        return readFrame();
    }

    /** The next frame, which must have type {@code type} on stream {@code streamId}. */
    public ReceivedFrame expectFrame(int type, int streamId) {
        ReceivedFrame f = receive();
        if (f.type() != type || f.streamId() != streamId) {
            throw new AssertionError("expected " + ReceivedFrame.typeName(type) + " on stream " + streamId + " but got "
                + f + "; received so far: " + received);
        }
        return f;
    }

    /** The next frame, which must be an ERROR with {@code errorCode} on {@code streamId}; returns it. */
    public ReceivedFrame expectError(int streamId, int errorCode) {
        ReceivedFrame f = expectFrame(ERROR, streamId);
        if (f.errorCode() != errorCode) {
            throw new AssertionError("expected ERROR code 0x" + Integer.toHexString(errorCode) + " on stream "
                + streamId + " but got " + f);
        }
        return f;
    }

    /**
     * Reads until the peer closes the connection and returns the frames that came before the end (KEEPALIVE
     * skipped unless visible); fails if the connection stays open past the read timeout.
     */
    public List<ReceivedFrame> expectClosed() {
        List<ReceivedFrame> before = new ArrayList<>();
        for (ReceivedFrame f; (f = readFrame()) != null; ) {
            before.add(f);
        }
        return before;
    }

    /** Whether the peer's end of stream was seen. */
    public boolean closedByPeer() {
        return eof;
    }

    /** Every frame read so far, KEEPALIVE included, in order. */
    public List<ReceivedFrame> received() {
        return List.copyOf(received);
    }

    private ReceivedFrame readFrame() {
        while (true) {
            if (eof) {
                return null;
            }
            byte[] frame;
            try {
                int b0 = in.read();
                if (b0 < 0) {
                    eof = true;
                    return null;
                }
                int length = b0 << 16 | in.readUnsignedByte() << 8 | in.readUnsignedByte();
                frame = new byte[length];
                in.readFully(frame);
            } catch (SocketTimeoutException e) {
                throw new AssertionError("nothing received within " + timeoutText() + "; received so far: "
                    + received, e);
            } catch (EOFException e) {
                eof = true;
                throw new AssertionError("connection closed in the middle of a frame; received so far: " + received,
                    e);
            } catch (SocketException e) {
                // A reset (the peer closed with unread input) is an end of stream too.
                eof = true;
                return null;
            } catch (IOException e) {
                throw new AssertionError("read failed: " + e + "; received so far: " + received, e);
            }
            if (frame.length < ReceivedFrame.HEADER_SIZE) {
                throw new AssertionError("received a " + frame.length + "-byte frame, shorter than its header");
            }
            ReceivedFrame f = new ReceivedFrame(frame);
            received.add(f);
            if (f.type() == KEEPALIVE && !keepAlivesVisible) {
                keepAlivesSkipped++;
                continue;
            }
            return f;
        }
    }

    private String timeoutText() {
        try {
            return socket.getSoTimeout() + " ms";
        } catch (SocketException e) {
            return "the read timeout";
        }
    }

    @Override
    public void close() {
        closeQuietly(socket);
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing is best effort
        }
    }

    private static int timeoutMillis(Duration d) {
        long ms = d.toMillis();
        if (ms <= 0 || ms > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("timeout must be 1 ms to 2^31-1 ms, got " + d);
        }
        return (int) ms;
    }
}
