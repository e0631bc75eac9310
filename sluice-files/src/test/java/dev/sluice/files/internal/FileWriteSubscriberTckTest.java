package dev.sluice.files.internal;

import io.netty.buffer.ByteBuf;

/** The Reactive Streams TCK for the writer of {@code ByteBuf} chunks. */
public class FileWriteSubscriberTckTest extends WriterTck<ByteBuf> {

    public FileWriteSubscriberTckTest() {
        super(TckSupport.untrackedChunks());
    }

    @Override
    public ByteBuf createElement(int element) {
        return TckSupport.UNTRACKED_HEAP.heapBuffer(64).writeZero(63).writeByte(element);
    }
}
