package dev.sluice.files.internal;

import java.nio.ByteBuffer;

/** The Reactive Streams TCK for the writer of {@code ByteBuffer} chunks. */
public class FileWriteByteBufferTckTest extends WriterTck<ByteBuffer> {

    public FileWriteByteBufferTckTest() {
        super(ByteBufferChunks.INSTANCE);
    }

    @Override
    public ByteBuffer createElement(int element) {
        return ByteBuffer.allocate(64).put(63, (byte) element);
    }
}
