package dev.sluice.bench.throughput;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.bench.throughput.internal.Payloads;
import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.RSocket;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.rsocket.core.RSocketConnector;
import io.rsocket.transport.netty.server.CloseableChannel;
import io.rsocket.util.ByteBufPayload;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The benchmark's senders make every request and answer a new payload over one constant template buffer, without
 * a duplicate per message: that is sound only while neither stack moves the indexes of the buffers it sends. Both
 * directions, both stacks, several messages in a row: each arrives with the template's bytes.
 */
class SharedTemplateTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final int MESSAGES = 3;

    @ParameterizedTest
    @ValueSource(ints = {4, 140})
    void sluiceSendsTheSameTemplateIntactEveryTime(int size) {
        ByteBuf template = Payloads.template(size);
        String expected = ByteBufUtil.hexDump(template);
        List<String> received = new CopyOnWriteArrayList<>();
        RSocket handler = new RSocket() {
            @Override
            public Mono<dev.sluice.core.Payload> requestResponse(dev.sluice.core.Payload p) {
                received.add(ByteBufUtil.hexDump(p.data()));
                p.release();
                return Mono.just(dev.sluice.core.Payload.create(template));
            }

            @Override
            public Flux<dev.sluice.core.Payload> requestStream(dev.sluice.core.Payload p) {
                p.release();
                return Flux.range(0, MESSAGES).map(i -> dev.sluice.core.Payload.create(template));
            }
        };
        CloseableServer server = RSocketServer.create().acceptor(SocketAcceptor.with(handler))
            .bind(TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        Connection client = dev.sluice.core.RSocketConnector.create()
            .connect(TcpClientTransport.create("127.0.0.1", server.port())).block(TIMEOUT);
        try {
            for (int i = 0; i < MESSAGES; i++) {
                String answer = client.requestResponse(dev.sluice.core.Payload.create(template))
                    .map(SharedTemplateTest::hexAndRelease).block(TIMEOUT);
                assertThat(answer).as("answer %d", i).isEqualTo(expected);
            }
            assertThat(received).as("requests").containsExactly(expected, expected, expected);
            assertThat(client.requestStream(dev.sluice.core.Payload.create(template))
                .map(SharedTemplateTest::hexAndRelease).collectList().block(TIMEOUT))
                .as("stream elements").containsExactly(expected, expected, expected);
        } finally {
            client.dispose();
            server.dispose();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {4, 140})
    void rsocketJavaSendsTheSameTemplateIntactEveryTime(int size) {
        ByteBuf template = Payloads.template(size);
        String expected = ByteBufUtil.hexDump(template);
        List<String> received = new CopyOnWriteArrayList<>();
        io.rsocket.RSocket handler = new io.rsocket.RSocket() {
            @Override
            public Mono<io.rsocket.Payload> requestResponse(io.rsocket.Payload p) {
                received.add(ByteBufUtil.hexDump(p.data()));
                p.release();
                return Mono.just(ByteBufPayload.create(template));
            }

            @Override
            public Flux<io.rsocket.Payload> requestStream(io.rsocket.Payload p) {
                p.release();
                return Flux.range(0, MESSAGES).map(i -> ByteBufPayload.create(template));
            }
        };
        CloseableChannel server = io.rsocket.core.RSocketServer.create(io.rsocket.SocketAcceptor.with(handler))
            .bind(io.rsocket.transport.netty.server.TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        io.rsocket.RSocket client = RSocketConnector.create()
            .connect(io.rsocket.transport.netty.client.TcpClientTransport.create(server.address())).block(TIMEOUT);
        try {
            for (int i = 0; i < MESSAGES; i++) {
                String answer = client.requestResponse(ByteBufPayload.create(template))
                    .map(SharedTemplateTest::hexAndRelease).block(TIMEOUT);
                assertThat(answer).as("answer %d", i).isEqualTo(expected);
            }
            assertThat(received).as("requests").containsExactly(expected, expected, expected);
            assertThat(client.requestStream(ByteBufPayload.create(template))
                .map(SharedTemplateTest::hexAndRelease).collectList().block(TIMEOUT))
                .as("stream elements").containsExactly(expected, expected, expected);
        } finally {
            client.dispose();
            server.dispose();
        }
    }

    private static String hexAndRelease(dev.sluice.core.Payload p) {
        try {
            return ByteBufUtil.hexDump(p.data());
        } finally {
            p.release();
        }
    }

    private static String hexAndRelease(io.rsocket.Payload p) {
        try {
            return ByteBufUtil.hexDump(p.data());
        } finally {
            p.release();
        }
    }
}
