package dev.sluice.testkit;

import io.netty.buffer.ByteBuf;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A scripted RSocket-over-WebSocket client on a plain socket: it sends the upgrade request, then exactly the
 * WebSocket frames a test writes (an RSocket frame as one binary message, or any frame at all: text, fragments,
 * control frames, lying lengths), masked as a client must, and reads the server's frames one by one. The
 * WebSocket counterpart of {@link ScriptedPeer}, for tests of the transport's framing and of hostile input.
 *
 * <p>Reads time out after 10 s, which only bounds a broken test. KEEPALIVE frames are skipped by the RSocket-level
 * readers, as {@link ScriptedPeer} does. Not thread-safe; failures are {@link AssertionError}s quoting what was
 * received.
 */
public final class ScriptedWebsocketPeer implements AutoCloseable {

    public static final int CONTINUATION = 0x0;
    public static final int TEXT = 0x1;
    public static final int BINARY = 0x2;
    public static final int CLOSE = 0x8;
    public static final int PING = 0x9;
    public static final int PONG = 0xA;

    /** The sample key of RFC 6455 §1.3 and the accept value it must be answered with. */
    private static final String KEY = "dGhlIHNhbXBsZSBub25jZQ==";
    private static final String ACCEPT = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=";
    private static final int KEEPALIVE = 0x03;
    private static final int ERROR = 0x0B;
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    /** One WebSocket frame as received. */
    public record Message(int opcode, boolean fin, byte[] payload) {

        /** A close frame's status code, or -1 if it has none. */
        public int closeCode() {
            return payload.length < 2 ? -1 : (payload[0] & 0xFF) << 8 | payload[1] & 0xFF;
        }

        /** A close frame's reason. */
        public String closeReason() {
            return payload.length <= 2 ? "" : new String(payload, 2, payload.length - 2, StandardCharsets.UTF_8);
        }

        @Override
        public String toString() {
            return "Message[opcode=0x" + Integer.toHexString(opcode) + ", fin=" + fin + ", length=" + payload.length
                + (opcode == CLOSE ? ", code=" + closeCode() + ", reason=" + closeReason() : "") + "]";
        }
    }

    /** An HTTP response read to the end of the connection. */
    public record HttpAnswer(int status, String head, String body) {
    }

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final List<Message> received = new ArrayList<>();

    private ScriptedWebsocketPeer(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /** A valid upgrade request for {@code path}, for tests to send as it is or with a header removed. */
    public static String upgradeRequest(String host, int port, String path) {
        return "GET " + path + " HTTP/1.1\r\n"
            + "Host: " + host + ":" + port + "\r\n"
            + "Upgrade: websocket\r\n"
            + "Connection: Upgrade\r\n"
            + "Sec-WebSocket-Key: " + KEY + "\r\n"
            + "Sec-WebSocket-Version: 13\r\n"
            + "\r\n";
    }

    /** Connects and upgrades on {@code path}; fails unless the answer is a valid 101. */
    public static ScriptedWebsocketPeer connect(String host, int port, String path) {
        Socket s = open(host, port);
        try {
            ScriptedWebsocketPeer peer = new ScriptedWebsocketPeer(s);
            peer.sendRaw(upgradeRequest(host, port, path).getBytes(StandardCharsets.US_ASCII));
            String head = readHead(peer.in);
            if (!head.startsWith("HTTP/1.1 101 ") || !ACCEPT.equals(header(head, "Sec-WebSocket-Accept"))) {
                throw new AssertionError("expected 101 Switching Protocols with Sec-WebSocket-Accept " + ACCEPT
                    + " but got:\n" + head);
            }
            return peer;
        } catch (IOException e) {
            closeQuietly(s);
            throw new AssertionError("upgrade failed: " + e, e);
        }
    }

    /**
     * Sends {@code request} as it is and reads the answer until the server closes the connection: a server that
     * keeps it open fails the call after the read timeout.
     */
    public static HttpAnswer http(String host, int port, String request) {
        try (Socket s = open(host, port)) {
            s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            return readAnswer(s.getInputStream());
        } catch (IOException e) {
            throw new AssertionError("HTTP exchange failed: " + e, e);
        }
    }

    /** Reads an HTTP answer until the server closes the connection. */
    public static HttpAnswer readAnswer(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] chunk = new byte[4096];
        try {
            for (int n; (n = in.read(chunk)) >= 0; ) {
                all.write(chunk, 0, n);
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the server kept the connection open; received: " + all, e);
        } catch (SocketException e) {
            // a reset ends the answer too
        }
        String text = all.toString(StandardCharsets.UTF_8);
        int end = text.indexOf("\r\n\r\n");
        if (!text.startsWith("HTTP/1.1 ") || end < 0) {
            throw new AssertionError("not an HTTP response: '" + text + "'");
        }
        return new HttpAnswer(Integer.parseInt(text.substring(9, 12)), text.substring(0, end),
            text.substring(end + 4));
    }

    // ---------------------------------------------------------------------------------------------------------
    // Sending

    /** Sends {@code frame} as one binary message. Takes ownership of {@code frame} (released here). */
    public ScriptedWebsocketPeer send(ByteBuf frame) {
        try {
            byte[] b = new byte[frame.readableBytes()];
            frame.getBytes(frame.readerIndex(), b);
            return sendFrame(BINARY, true, b);
        } finally {
            frame.release();
        }
    }

    /** Sends one masked WebSocket frame. */
    public ScriptedWebsocketPeer sendFrame(int opcode, boolean fin, byte[] payload) {
        return sendRaw(frameBytes(opcode, fin, payload));
    }

    /** The bytes of one WebSocket frame masked with a fresh random key, for a test to send in a batch. */
    public static byte[] frameBytes(int opcode, boolean fin, byte[] payload) {
        int key = ThreadLocalRandom.current().nextInt();
        byte[] header = header(opcode, fin, payload.length, key);
        byte[] wire = new byte[header.length + payload.length];
        System.arraycopy(header, 0, wire, 0, header.length);
        for (int i = 0; i < payload.length; i++) {
            wire[header.length + i] = (byte) (payload[i] ^ key >>> 24 - 8 * (i & 3));
        }
        return wire;
    }

    /** Sends only the header of a masked frame claiming {@code length} payload bytes, none of which follow. */
    public ScriptedWebsocketPeer sendHeader(int opcode, boolean fin, long length) {
        return sendRaw(header(opcode, fin, length, ThreadLocalRandom.current().nextInt()));
    }

    /** Sends bytes exactly as given. */
    public ScriptedWebsocketPeer sendRaw(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
            return this;
        } catch (IOException e) {
            throw new AssertionError("send failed: " + e + "; received so far: " + received, e);
        }
    }

    private static byte[] header(int opcode, boolean fin, long length, int key) {
        ByteArrayOutputStream h = new ByteArrayOutputStream();
        h.write((fin ? 0x80 : 0) | opcode);
        if (length <= 125) {
            h.write(0x80 | (int) length);
        } else if (length <= 0xFFFF) {
            h.write(0x80 | 126);
            h.write((int) (length >>> 8));
            h.write((int) length);
        } else {
            h.write(0x80 | 127);
            for (int shift = 56; shift >= 0; shift -= 8) {
                h.write((int) (length >>> shift));
            }
        }
        for (int shift = 24; shift >= 0; shift -= 8) {
            h.write(key >>> shift);
        }
        return h.toByteArray();
    }

    // ---------------------------------------------------------------------------------------------------------
    // Receiving

    /** The next WebSocket frame, whatever it is; fails on timeout or end of stream. */
    public Message receiveMessage() {
        Message m = readMessage();
        if (m == null) {
            throw new AssertionError("connection closed while a WebSocket frame was expected; received so far: "
                + received);
        }
        return m;
    }

    /** The next RSocket frame (KEEPALIVE skipped): the next message, which must be a whole binary one. */
    public ReceivedFrame receive() {
        while (true) {
            Message m = receiveMessage();
            if (m.opcode() != BINARY || !m.fin()) {
                throw new AssertionError("expected a binary message but got " + m + "; received so far: "
                    + received);
            }
            if (m.payload().length < ReceivedFrame.HEADER_SIZE) {
                throw new AssertionError("received a " + m.payload().length + "-byte frame, shorter than its header");
            }
            ReceivedFrame f = new ReceivedFrame(m.payload());
            if (f.type() != KEEPALIVE) {
                return f;
            }
        }
    }

    /** The next RSocket frame, which must have type {@code type} on stream {@code streamId}. */
    public ReceivedFrame expectFrame(int type, int streamId) {
        ReceivedFrame f = receive();
        if (f.type() != type || f.streamId() != streamId) {
            throw new AssertionError("expected " + ReceivedFrame.typeName(type) + " on stream " + streamId
                + " but got " + f + "; received so far: " + received);
        }
        return f;
    }

    /** The next RSocket frame, which must be an ERROR with {@code errorCode} on {@code streamId}. */
    public ReceivedFrame expectError(int streamId, int errorCode) {
        ReceivedFrame f = expectFrame(ERROR, streamId);
        if (f.errorCode() != errorCode) {
            throw new AssertionError("expected ERROR code 0x" + Integer.toHexString(errorCode) + " on stream "
                + streamId + " but got " + f);
        }
        return f;
    }

    /**
     * Expects a close frame as the next frame (RSocket KEEPALIVEs aside), then the end of the connection; returns
     * the close frame.
     */
    public Message expectCloseAndEnd() {
        Message m = receiveMessage();
        while (m.opcode() == BINARY && m.payload().length >= ReceivedFrame.HEADER_SIZE
            && new ReceivedFrame(m.payload()).type() == KEEPALIVE) {
            m = receiveMessage();
        }
        if (m.opcode() != CLOSE) {
            throw new AssertionError("expected a close frame but got " + m + "; received so far: " + received);
        }
        Message after = readMessage();
        if (after != null) {
            throw new AssertionError("expected the end of the connection after the close frame but got " + after);
        }
        return m;
    }

    /** Every WebSocket frame read so far, in order. */
    public List<Message> received() {
        return List.copyOf(received);
    }

    private Message readMessage() {
        try {
            int b0 = in.read();
            if (b0 < 0) {
                return null;
            }
            int b1 = in.readUnsignedByte();
            if ((b1 & 0x80) != 0) {
                throw new AssertionError("the server masked a frame; RFC 6455 forbids it");
            }
            long length = b1 & 0x7F;
            if (length == 126) {
                length = in.readUnsignedShort();
            } else if (length == 127) {
                length = in.readLong();
            }
            if (length > Integer.MAX_VALUE - 8) {
                throw new AssertionError("frame length " + length + " received");
            }
            byte[] payload = new byte[(int) length];
            in.readFully(payload);
            Message m = new Message(b0 & 0x0F, (b0 & 0x80) != 0, payload);
            received.add(m);
            return m;
        } catch (SocketTimeoutException e) {
            throw new AssertionError("nothing received within " + TIMEOUT.toMillis() + " ms; received so far: "
                + received, e);
        } catch (EOFException e) {
            throw new AssertionError("connection closed in the middle of a frame; received so far: " + received, e);
        } catch (SocketException e) {
            // A reset (the server closed with unread input) is an end of stream too.
            return null;
        } catch (IOException e) {
            throw new AssertionError("read failed: " + e + "; received so far: " + received, e);
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < end.length) {
            int b = in.read();
            if (b < 0) {
                throw new AssertionError("connection closed during the upgrade; received: " + head);
            }
            head.write(b);
            matched = b == end[matched] ? matched + 1 : b == '\r' ? 1 : 0;
        }
        return head.toString(StandardCharsets.US_ASCII);
    }

    /** The value of header {@code name} (any case) in an HTTP head, or null. */
    public static String header(String head, String name) {
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                return line.substring(colon + 1).trim();
            }
        }
        return null;
    }

    @Override
    public void close() {
        closeQuietly(socket);
    }

    private static Socket open(String host, int port) {
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.setSoTimeout((int) TIMEOUT.toMillis());
            s.connect(new InetSocketAddress(host, port), (int) TIMEOUT.toMillis());
            return s;
        } catch (IOException e) {
            closeQuietly(s);
            throw new AssertionError("cannot connect to " + host + ":" + port + ": " + e, e);
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing is best effort
        }
    }
}
