package dev.sluice.files.internal;

import java.nio.ByteBuffer;

/** The Reactive Streams TCK for the reader of {@code ByteBuffer} chunks. */
public class FileReadByteBufferTckTest extends ReaderTck<ByteBuffer> {

    public FileReadByteBufferTckTest() {
        super(ByteBufferChunks.INSTANCE);
    }
}
