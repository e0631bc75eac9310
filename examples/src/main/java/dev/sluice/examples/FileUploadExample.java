package dev.sluice.examples;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.files.ReactiveFiles;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.Stream;
import reactor.core.publisher.Flux;

/**
 * File upload over request-channel: the client streams a file in 64 KiB chunks read from disk, the server writes
 * them straight to a file and answers with the byte count. Demand flows from the server's disk writer back to the
 * client's file reader, so neither side holds more than a few chunks, whatever the file size. Prints
 * {@code uploaded 1048576 bytes, stored 1048576 bytes, identical: true}.
 */
public final class FileUploadExample {

    private static final int SIZE = 1 << 20;

    private FileUploadExample() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Files.createTempDirectory("sluice-upload-example");
        Path source = dir.resolve("source.bin");
        Path stored = dir.resolve("stored.bin");
        byte[] content = new byte[SIZE];
        new Random(42).nextBytes(content);
        Files.write(source, content);

        CloseableServer server = RSocketServer.create(SocketAcceptor.forRequestChannel(chunks -> {
            // Each chunk's data buffer goes to the writer, which releases it once written; the payload around it
            // is released here. No copy between the socket and the disk.
            Flux<ByteBuf> data = Flux.from(chunks).map(chunk -> {
                ByteBuf buf = chunk.data().retain();
                chunk.release();
                return buf;
            });
            return ReactiveFiles.write(data, stored).map(bytes -> Payload.create(Long.toString(bytes))).flux();
        })).bindNow(TcpServerTransport.create("127.0.0.1", 0));

        Connection client = RSocketConnector.connectWith(TcpClientTransport.create("127.0.0.1", server.port()))
            .block();
        String storedBytes = client.requestChannel(ReactiveFiles.read(source).map(Payload::create))
            .map(answer -> {
                String s = answer.dataUtf8();
                answer.release();
                return s;
            })
            .blockLast();
        boolean identical = Files.mismatch(source, stored) == -1L;
        System.out.println("uploaded " + Files.size(source) + " bytes, stored " + storedBytes + " bytes, identical: "
            + identical);

        client.dispose();
        server.dispose();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
