package dev.sluice.bench.throughput.peers;

import io.grpc.Drainable;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * A grpc-java marshaller for raw byte arrays, standing in for protobuf so the benchmark needs no codegen. It
 * takes grpc's fast path the way protobuf's marshaller does: the stream it returns knows its length
 * ({@link KnownLength}, so no intermediate buffering) and drains itself in one write ({@link Drainable}).
 * Stateless; thread-safe.
 */
final class BytesMarshaller implements MethodDescriptor.Marshaller<byte[]> {

    static final BytesMarshaller INSTANCE = new BytesMarshaller();

    private BytesMarshaller() {
    }

    @Override
    public InputStream stream(byte[] value) {
        return new BytesStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
        try {
            if (stream instanceof KnownLength) {
                byte[] bytes = new byte[stream.available()];
                int read = stream.readNBytes(bytes, 0, bytes.length);
                if (read != bytes.length) {
                    throw new IllegalStateException("short message: read " + read + " of " + bytes.length);
                }
                return bytes;
            }
            return stream.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read a message: " + e, e);
        }
    }

    /** One message on its way out. Not thread-safe (grpc reads it once, on one thread). */
    private static final class BytesStream extends InputStream implements KnownLength, Drainable {
        private final byte[] bytes;
        private int position;

        BytesStream(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public int drainTo(OutputStream target) throws IOException {
            int n = bytes.length - position;
            target.write(bytes, position, n);
            position = bytes.length;
            return n;
        }

        @Override
        public int read() {
            return position < bytes.length ? bytes[position++] & 0xFF : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (position >= bytes.length) {
                return len == 0 ? 0 : -1;
            }
            int n = Math.min(len, bytes.length - position);
            System.arraycopy(bytes, position, b, off, n);
            position += n;
            return n;
        }

        @Override
        public int available() {
            return bytes.length - position;
        }
    }
}
