package dev.sluice.transport.netty.conformance;

import static dev.sluice.testkit.ScriptedWebsocketPeer.BINARY;
import static dev.sluice.testkit.ScriptedWebsocketPeer.CLOSE;
import static dev.sluice.testkit.ScriptedWebsocketPeer.CONTINUATION;
import static dev.sluice.testkit.ScriptedWebsocketPeer.PING;
import static dev.sluice.testkit.ScriptedWebsocketPeer.PONG;
import static dev.sluice.testkit.ScriptedWebsocketPeer.TEXT;
import static dev.sluice.transport.netty.conformance.ServerUnderTest.ping;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Connection;
import dev.sluice.frame.ErrorCodes;
import dev.sluice.frame.FrameType;
import dev.sluice.frame.PayloadFrame;
import dev.sluice.testkit.ReceivedFrame;
import dev.sluice.testkit.ScriptedWebsocketPeer;
import dev.sluice.testkit.ScriptedWebsocketPeer.HttpAnswer;
import dev.sluice.testkit.ScriptedWebsocketPeer.Message;
import dev.sluice.transport.netty.WebsocketServerTransport;
import io.netty.buffer.ByteBuf;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A Sluice server on WebSocket, driven by a scripted WebSocket client: the framing (one RSocket frame per binary
 * message, continuation frames gathered, pings answered, the peer's close echoed), what closes the connection and
 * with which status (1003 for text, 1009 over the max frame length, 1002 for WebSocket protocol errors, 1000 when
 * the engine closes after an ERROR frame), the hostile-peer checks of the TCP conformance tests that apply to
 * WebSocket, and the HTTP status of each kind of bad upgrade. Every close is checked to be followed by the end of
 * the connection, and the server's side of it to be freed.
 */
class WebsocketConformanceTest {

    private static final String PATH = WebsocketServerTransport.DEFAULT_PATH;

    private ServerUnderTest server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private void start(Consumer<WebsocketServerTransport> transport) {
        server = ServerUnderTest.websocket(s -> { }, transport);
    }

    private void start() {
        start(t -> { });
    }

    // ---------------------------------------------------------------------------------------------------------
    // Framing

    @Test
    void eachBinaryMessageIsOneFrameAndEachAnswerIsOneMessage() {
        start();
        try (ScriptedWebsocketPeer peer = server.connectWebsocketAndSetup()) {
            ping(peer, 1);
            ping(peer, 3);
            assertThat(peer.received()).allSatisfy(m -> assertThat(m.opcode()).isEqualTo(BINARY));
        }
    }

    @Test
    void fragmentedMessageIsGatheredAndAPingBetweenItsFragmentsIsAnswered() {
        start();
        try (ScriptedWebsocketPeer peer = server.connectWebsocketAndSetup()) {
            byte[] frame = bytes(TestFrames.requestResponse(1, "gathered from three fragments"));
            peer.sendFrame(BINARY, false, Arrays.copyOfRange(frame, 0, 4));
            peer.sendFrame(PING, true, "are you there".getBytes(StandardCharsets.UTF_8));
            peer.sendFrame(CONTINUATION, false, Arrays.copyOfRange(frame, 4, 10));
            peer.sendFrame(CONTINUATION, true, Arrays.copyOfRange(frame, 10, frame.length));
            Message pong = peer.receiveMessage();
            assertThat(pong.opcode()).isEqualTo(PONG);
            assertThat(new String(pong.payload(), StandardCharsets.UTF_8)).isEqualTo("are you there");
            assertThat(dataOf(peer.expectFrame(FrameType.PAYLOAD, 1))).isEqualTo("gathered from three fragments");
        }
    }

    @Test
    void messageOfManyOneByteFragmentsIsGathered() {
        start();
        try (ScriptedWebsocketPeer peer = server.connectWebsocketAndSetup()) {
            byte[] frame = bytes(TestFrames.requestResponse(1, "x".repeat(200)));
            for (int i = 0; i < frame.length; i++) {
                peer.sendFrame(i == 0 ? BINARY : CONTINUATION, i == frame.length - 1, new byte[] {frame[i]});
            }
            assertThat(dataOf(peer.expectFrame(FrameType.PAYLOAD, 1))).isEqualTo("x".repeat(200));
        }
    }

    @Test
    void peersCloseIsEchoedAndTheConnectionFreed() {
        start();
        try (ScriptedWebsocketPeer peer = server.connectWebsocketAndSetup()) {
            ping(peer, 1);
            peer.sendFrame(CLOSE, true, closePayload(1001, "going away"));
            Message echo = peer.expectCloseAndEnd();
            assertThat(echo.closeCode()).isEqualTo(1001);
        }
        assertConnectionFreed(0);
    }

    // ---------------------------------------------------------------------------------------------------------
    // What closes the connection, and with which status

    @Test
    void textMessageClosesWith1003AfterAConnectionError() {
        start();
        try (ScriptedWebsocketPeer peer = server.connectWebsocketAndSetup()) {
            ping(peer, 1);
            peer.sendFrame(TEXT, true, "{\"hello\": 1}".getBytes(StandardCharsets.UTF_8));
            String reason = "text message received: RSocket frames travel in binary messages";
            assertThat(peer.expectError(0, ErrorCodes.CONNECTION_ERROR).errorMessage()).isEqualTo(reason);
            Message close = peer.expectCloseAndEnd();
            assertThat(close.closeCode()).isEqualTo(1003);
            assertThat(close.closeReason()).isEqualTo(reason);
        }
        assertConnectionFreed(0);
    }

    @Test
    void frameOverMaxFrameLengthClosesWith1009BeforeItsBytesArrive() {
        start(t -> t.maxFrameLength(1024));
        try (ScriptedWebsocketPeer peer = server.connectWebsocketAndSetup()) {
            // Exactly at the bound: a 1024-byte REQUEST_RESPONSE is served.
            peer.send(TestFrames.requestResponse(1, "x".repeat(1024 - 6)));
            assertThat(peer.expectFrame(FrameType.PAYLOAD, 1).length()).isEqualTo(1024);
            // One over: the header alone condemns it.
            peer.sendHeader(BINARY, true, 1025);
            String reason = "WebSocket frame exceeds maxFrameLength=1024";
            assertThat(peer.expectError(0, ErrorCodes.CONNECTION_ERROR).errorMessage()).isEqualTo(reason);
            Message close = peer.expectCloseAndEnd();
            assertThat(close.closeCode()).isEqualTo(1009);
            assertThat(close.closeReason()).isEqualTo(reason);
        }
        assertConnectionFreed(0);
    }

    @Test
    void messageGatheredOverMaxFrameLengthClosesWith1009() {
        start(t -> t.maxFrameLength(1024));
        try (ScriptedWebsocketPeer peer = server.connectWebsocketAndSetup()) {
            ping(peer, 1);
            byte[] frame = bytes(TestFrames.requestResponse(3, "x".repeat(1200)));
            peer.sendFrame(BINARY, false, Arrays.copyOfRange(frame, 0, 600));
            peer.sendFrame(CONTINUATION, true, Arrays.copyOfRange(frame, 600, frame.length));
            String reason = "WebSocket message of at least 1206 bytes exceeds maxFrameLength=1024";
            assertThat(peer.expectError(0, ErrorCodes.CONNECTION_ERROR).errorMessage()).isEqualTo(reason);
            assertThat(peer.expectCloseAndEnd().closeCode()).isEqualTo(1009);
        }
        assertConnectionFreed(0);
    }

    @Test
    void floodOfTinyWebSocketFragmentsIsBoundedByMaxFrameLength() {
        start(t -> t.maxFrameLength(1024));
        try (ScriptedWebsocketPeer peer = server.connectWebsocketAndSetup()) {
            ping(peer, 1);
            // 2000 one-byte fragments of a message that never ends, in one write.
            ByteArrayOutputStream flood = new ByteArrayOutputStream();
            peer.sendFrame(BINARY, false, new byte[] {0});
            for (int i = 0; i < 2000; i++) {
                flood.writeBytes(ScriptedWebsocketPeer.frameBytes(CONTINUATION, false, new byte[] {1}));
            }
            peer.sendRaw(flood.toByteArray());
            assertThat(peer.expectError(0, ErrorCodes.CONNECTION_ERROR).errorMessage())
                .isEqualTo("WebSocket message of at least 1025 bytes exceeds maxFrameLength=1024");
            assertThat(peer.expectCloseAndEnd().closeCode()).isEqualTo(1009);
        }
        assertConnectionFreed(0);
    }

    @Test
    void unmaskedFrameFromAClientClosesWith1002() {
        start();
        try (ScriptedWebsocketPeer peer = server.connectWebsocketAndSetup()) {
            ping(peer, 1);
            byte[] frame = bytes(TestFrames.requestResponse(3, "unmasked"));
            byte[] wire = new byte[2 + frame.length];
            wire[0] = (byte) 0x82;
            wire[1] = (byte) frame.length;
            System.arraycopy(frame, 0, wire, 2, frame.length);
            peer.sendRaw(wire);
            String reason = "WebSocket protocol error: received a frame that is not masked as expected";
            assertThat(peer.expectError(0, ErrorCodes.CONNECTION_ERROR).errorMessage()).isEqualTo(reason);
            assertThat(peer.expectCloseAndEnd().closeCode()).isEqualTo(1002);
        }
        assertConnectionFreed(0);
    }

    @Test
    void reservedOpcodeClosesWith1002() {
        start();
        try (ScriptedWebsocketPeer peer = server.connectWebsocketAndSetup()) {
            ping(peer, 1);
            peer.sendFrame(0x3, true, new byte[] {1, 2, 3});
            assertThat(peer.expectError(0, ErrorCodes.CONNECTION_ERROR).errorMessage())
                .isEqualTo("WebSocket protocol error: data frame using reserved opcode 3");
            assertThat(peer.expectCloseAndEnd().closeCode()).isEqualTo(1002);
        }
        assertConnectionFreed(0);
    }

    // ---------------------------------------------------------------------------------------------------------
    // The TCP conformance tests' hostile peers, over WebSocket

    @Test
    void garbageFrameShorterThanItsHeaderIsConnectionError() {
        start();
        try (ScriptedWebsocketPeer peer = server.connectWebsocketAndSetup()) {
            ping(peer, 1);
            peer.sendFrame(BINARY, true, new byte[] {0, 0, 0});
            assertThat(peer.expectError(0, ErrorCodes.CONNECTION_ERROR).errorMessage())
                .isEqualTo("malformed frame: frame too short for header: length=3, need 6");
            // The engine closed for its own reason, told in its ERROR frame: a normal closure.
            assertThat(peer.expectCloseAndEnd().closeCode()).isEqualTo(1000);
        }
        assertConnectionFreed(0);
    }

    @Test
    void garbageFrameOfUnknownTypeIsConnectionError() {
        start();
        try (ScriptedWebsocketPeer peer = server.connectWebsocketAndSetup()) {
            ping(peer, 1);
            peer.send(TestFrames.raw(0, 0x20, 0, (byte) 1, (byte) 2));
            assertThat(peer.expectError(0, ErrorCodes.CONNECTION_ERROR).errorMessage())
                .isEqualTo("malformed frame: unknown frame type 0x20");
            assertThat(peer.expectCloseAndEnd().closeCode()).isEqualTo(1000);
        }
        assertConnectionFreed(0);
    }

    @Test
    void tinyRSocketFragmentFloodIsConnectionError() {
        start();
        try (ScriptedWebsocketPeer peer = server.connectWebsocketAndSetup()) {
            ping(peer, 1);
            // One full first fragment (66 bytes), then 100 fragments that carry nothing, a message each, one write.
            ByteArrayOutputStream flood = new ByteArrayOutputStream();
            flood.writeBytes(ScriptedWebsocketPeer.frameBytes(BINARY, true,
                bytes(TestFrames.requestResponse(3, true, null, "a".repeat(60)))));
            for (int i = 0; i < 100; i++) {
                flood.writeBytes(ScriptedWebsocketPeer.frameBytes(BINARY, true,
                    bytes(TestFrames.payload(3, true, false, true, null, ""))));
            }
            peer.sendRaw(flood.toByteArray());
            assertThat(peer.expectError(0, ErrorCodes.CONNECTION_ERROR).errorMessage())
                .isEqualTo("fragment of 6 bytes on stream 3: fragments other than the last must be at least 61"
                    + " bytes (the minimum MTU of 64 less the length prefix)");
            assertThat(peer.expectCloseAndEnd().closeCode()).isEqualTo(1000);
        }
        assertConnectionFreed(0);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Bad upgrades: an HTTP status, then the close

    @Test
    void upgradeOnAnotherPathIs404() {
        start();
        HttpAnswer answer = http(ScriptedWebsocketPeer.upgradeRequest("127.0.0.1", server.port(), "/other?x=1"));
        assertThat(answer.status()).isEqualTo(404);
        assertThat(answer.body()).isEqualTo("no WebSocket endpoint at /other; RSocket is served at /rsocket\n");
        assertThat(ScriptedWebsocketPeer.header(answer.head(), "Connection")).isEqualTo("close");
    }

    @Test
    void upgradeWithoutTheUpgradeHeaderIs400() {
        start();
        HttpAnswer answer = http(valid().replace("Upgrade: websocket\r\n", ""));
        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.body()).isEqualTo("not a WebSocket upgrade: no 'Upgrade: websocket' header\n");
    }

    @Test
    void upgradeWithoutConnectionUpgradeIs400() {
        start();
        HttpAnswer answer = http(valid().replace("Connection: Upgrade\r\n", "Connection: keep-alive\r\n"));
        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.body()).isEqualTo("not a WebSocket upgrade: no 'Connection: Upgrade' header\n");
    }

    @Test
    void upgradeWithoutAKeyIs400() {
        start();
        HttpAnswer answer = http(valid().replaceFirst("Sec-WebSocket-Key: [^\r]*\r\n", ""));
        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.body()).isEqualTo("not a WebSocket upgrade: no Sec-WebSocket-Key header\n");
    }

    @Test
    void upgradeWithAnotherVersionIs426NamingVersion13() {
        start();
        HttpAnswer answer = http(valid().replace("Sec-WebSocket-Version: 13", "Sec-WebSocket-Version: 8"));
        assertThat(answer.status()).isEqualTo(426);
        assertThat(ScriptedWebsocketPeer.header(answer.head(), "Sec-WebSocket-Version")).isEqualTo("13");
    }

    @Test
    void upgradeWithPostIs405() {
        start();
        HttpAnswer answer = http(valid().replaceFirst("^GET", "POST"));
        assertThat(answer.status()).isEqualTo(405);
    }

    @Test
    void requestThatIsNotHttpIs400() {
        start();
        HttpAnswer answer = http("\u0001\u0002 hello there\r\n\r\n");
        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.body()).startsWith("malformed HTTP request: ");
    }

    @Test
    void connectionThatSendsNoRequestGets408AfterTheHandshakeTimeout() {
        start(t -> t.handshakeTimeout(Duration.ofMillis(100)));
        // Half a request, then silence.
        HttpAnswer answer = http("GET /rsocket HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        assertThat(answer.status()).isEqualTo(408);
        assertThat(answer.body()).isEqualTo("no WebSocket upgrade request within 100 ms\n");
        assertThat(server.accepted).isEmpty();
    }

    // ---------------------------------------------------------------------------------------------------------

    private String valid() {
        return ScriptedWebsocketPeer.upgradeRequest("127.0.0.1", server.port(), PATH);
    }

    private HttpAnswer http(String request) {
        return ScriptedWebsocketPeer.http("127.0.0.1", server.port(), request);
    }

    private static byte[] bytes(ByteBuf frame) {
        try {
            byte[] b = new byte[frame.readableBytes()];
            frame.getBytes(frame.readerIndex(), b);
            return b;
        } finally {
            frame.release();
        }
    }

    private static byte[] closePayload(int code, String reason) {
        byte[] r = reason.getBytes(StandardCharsets.UTF_8);
        byte[] p = new byte[2 + r.length];
        p[0] = (byte) (code >>> 8);
        p[1] = (byte) code;
        System.arraycopy(r, 0, p, 2, r.length);
        return p;
    }

    private static String dataOf(ReceivedFrame payload) {
        return payload.dataUtf8(PayloadFrame.PAYLOAD_START);
    }

    /** Waits for the server side of the {@code index}-th accepted connection to close. */
    private void assertConnectionFreed(int index) {
        Connection c = server.accepted.get(index);
        c.onClose().onErrorComplete().block(ServerUnderTest.TIMEOUT);
        assertThat(c.isDisposed()).isTrue();
    }
}
