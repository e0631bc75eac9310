package dev.sluice.files.internal;

import io.netty.buffer.ByteBuf;

/** The Reactive Streams TCK for the reader of {@code ByteBuf} chunks. */
public class FileReadFluxTckTest extends ReaderTck<ByteBuf> {

    public FileReadFluxTckTest() {
        super(TckSupport.untrackedChunks());
    }
}
