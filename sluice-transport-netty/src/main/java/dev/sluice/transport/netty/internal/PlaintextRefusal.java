package dev.sluice.transport.netty.internal;

import dev.sluice.frame.ErrorCodes;
import dev.sluice.frame.ErrorFrame;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import java.nio.charset.StandardCharsets;

/**
 * What a TLS server answers, in the clear, to a client that speaks plaintext: in the protocol that client speaks,
 * so that it reports why instead of a dropped connection. {@link TlsDetector} writes it and closes.
 */
public enum PlaintextRefusal {

    /**
     * For TCP: ERROR[REJECTED_SETUP] {@value #REASON} on stream 0, behind its 3-byte length. A plaintext RSocket
     * client's SETUP is refused with that message.
     */
    REJECTED_SETUP {
        @Override
        public ByteBuf encode(ByteBufAllocator alloc) {
            ByteBuf error = alloc.buffer();
            error.writeMedium(0);
            ErrorFrame.encode(error, 0, ErrorCodes.REJECTED_SETUP, REASON);
            error.setMedium(0, error.readableBytes() - 3);
            return error;
        }

        @Override
        public String describe() {
            return "REJECTED_SETUP '" + REASON + "'";
        }
    },

    /**
     * For WebSocket: an HTTP/1.1 400 whose one-line body says {@value #HTTP_REASON}. A plaintext WebSocket client
     * (a {@code ws://} address, a browser page loaded over {@code http://}) reports a refused upgrade with that body.
     */
    HTTP_400 {
        @Override
        public ByteBuf encode(ByteBufAllocator alloc) {
            byte[] body = (HTTP_REASON + "\n").getBytes(StandardCharsets.US_ASCII);
            String head = "HTTP/1.1 400 Bad Request\r\n"
                + "Content-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: " + body.length + "\r\n"
                + "Connection: close\r\n\r\n";
            ByteBuf response = ByteBufUtil.writeAscii(alloc, head);
            response.writeBytes(body);
            return response;
        }

        @Override
        public String describe() {
            return "400 '" + HTTP_REASON + "'";
        }
    };

    /** The reason a plaintext RSocket client is given. */
    public static final String REASON = "this server requires TLS";

    /** The reason a plaintext WebSocket client is given: the scheme it should have used. */
    public static final String HTTP_REASON = REASON + ": connect with wss://";

    /** The answer's bytes, for the wire as they are (no handler after the caller encodes them). */
    public abstract ByteBuf encode(ByteBufAllocator alloc);

    /** The answer, for the log line: {@code REJECTED_SETUP 'this server requires TLS'}. */
    public abstract String describe();
}
