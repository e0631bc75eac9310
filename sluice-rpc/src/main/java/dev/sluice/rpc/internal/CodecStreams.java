package dev.sluice.rpc.internal;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocal;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * One thread's reusable protobuf encoder (for large messages), scratch array (for small ones, and a stream's small
 * messages to be parsed) and decoder (for other messages in a direct buffer).
 * The encoder and decoder each sit over a small stream adapter that is pointed at one
 * buffer per message: the encoder writes through its own array into the target buffer and is flushed after each
 * message; the decoder reads the message's bytes and meets their end as the end of the message. Both are
 * documented protobuf streams used as documented; between messages the decoder's size counter is reset. After a
 * failure a stream's state is unknown (a half-written or half-read message), so it is replaced.
 *
 * <p>Thread-confined, one per thread ({@link #current}).
 */
final class CodecStreams {

    /** The encoder's and decoder's own arrays: small messages pass in one piece, larger ones in chunks. */
    static final int BUFFER_BYTES = 4096;

    private static final FastThreadLocal<CodecStreams> CURRENT = new FastThreadLocal<>() {
        @Override
        protected CodecStreams initialValue() {
            return new CodecStreams();
        }
    };

    /**
     * Where a small message is serialized by protobuf's array encoder before it is copied into its frame, and where
     * a small message of a stream is copied out of its frame to be parsed.
     */
    private final byte[] scratch = new byte[ProtobufCodec.HEAP_MAX];
    private final Sink sink = new Sink();
    private final Source source = new Source();
    private CodedOutputStream encoder = CodedOutputStream.newInstance(sink, BUFFER_BYTES);
    private CodedInputStream decoder = CodedInputStream.newInstance(source, BUFFER_BYTES);

    private CodecStreams() {
    }

    static CodecStreams current() {
        return CURRENT.get();
    }

    /** The scratch array, {@link ProtobufCodec#HEAP_MAX} bytes; its content is the caller's until it returns. */
    byte[] scratch() {
        return scratch;
    }

    /** The encoder, writing into {@code target}; call {@link #encoderDone} or {@link #encoderFailed} after. */
    CodedOutputStream encoderInto(ByteBuf target) {
        sink.target = target;
        return encoder;
    }

    /** Pushes the encoder's buffered bytes into the target. */
    void encoderDone() throws IOException {
        try {
            encoder.flush();
        } finally {
            sink.target = null;
        }
    }

    void encoderFailed() {
        sink.target = null;
        encoder = CodedOutputStream.newInstance(sink, BUFFER_BYTES);
    }

    /**
     * The decoder, reading the {@code length} bytes of {@code buf} from {@code index}; call {@link #decoderDone}
     * or {@link #decoderFailed}.
     */
    CodedInputStream decoderFrom(ByteBuf buf, int index, int length) {
        source.from(buf, index, length);
        decoder.resetSizeCounter();
        return decoder;
    }

    void decoderDone() {
        source.clear();
    }

    void decoderFailed() {
        source.clear();
        decoder = CodedInputStream.newInstance(source, BUFFER_BYTES);
    }

    /** Appends what the encoder flushes to the current target buffer. */
    private static final class Sink extends OutputStream {
        ByteBuf target;

        @Override
        public void write(int b) {
            target.writeByte(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            target.writeBytes(b, off, len);
        }
    }

    /** The readable bytes of one buffer, then end of stream (-1, never 0: protobuf takes 0 as an error). */
    private static final class Source extends InputStream {
        private ByteBuf buf;
        private int index;
        private int remaining;

        void from(ByteBuf data, int from, int length) {
            buf = data;
            index = from;
            remaining = length;
        }

        void clear() {
            buf = null;
            remaining = 0;
        }

        @Override
        public int read() {
            if (remaining == 0) {
                return -1;
            }
            remaining--;
            return buf.getByte(index++) & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (len == 0) {
                return 0;
            }
            if (remaining == 0) {
                return -1;
            }
            int n = Math.min(len, remaining);
            buf.getBytes(index, b, off, n);
            index += n;
            remaining -= n;
            return n;
        }

        @Override
        public long skip(long n) {
            int k = (int) Math.max(0, Math.min(n, remaining));
            index += k;
            remaining -= k;
            return k;
        }

        @Override
        public int available() {
            return remaining;
        }
    }
}
