package dev.sluice.rpc.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.sluice.rpc.RpcService;
import dev.sluice.rpc.echo.v1.EchoGrpc;
import dev.sluice.rpc.echo.v1.EchoReply;
import dev.sluice.rpc.echo.v1.EchoRequest;
import dev.sluice.rpc.echo.v1.EchoRpc;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;

/**
 * An implementation that reads its requests slowly holds a gRPC client back: the requests it asked for are all it
 * receives, and the client, sending whenever its call is ready, can send no more than the HTTP/2 windows hold.
 *
 * <p>The bound: the server's window ({@link GrpcLoopback#WINDOW}, 64 KiB) plus the client's 32 KiB ready
 * threshold, in 1 KiB requests, plus the ones asked for: {@value #BOUND}.
 */
class SlowImplementationTest {

    private static final int ASKED = 5;
    private static final int OFFERED = 100_000;
    private static final int REQUEST_DATA = 1024;
    private static final long BOUND = 110;

    private GrpcLoopback loopback;

    @AfterEach
    void stop() throws InterruptedException {
        loopback.close();
    }

    @Test
    void aBidirectionalCallSendsOnlyWhatTheImplementationCanTake() throws InterruptedException {
        AtomicLong delivered = new AtomicLong();
        RpcService service = RpcService.builder(EchoRpc.SERVICE_NAME)
            .bidiStreaming(EchoRpc.METHOD_CHAT, requests -> {
                requests.subscribe(new BaseSubscriber<>() {
                    @Override
                    protected void hookOnSubscribe(Subscription subscription) {
                        subscription.request(ASKED);
                    }

                    @Override
                    protected void hookOnNext(EchoRequest value) {
                        delivered.incrementAndGet();
                    }
                });
                return Flux.<EchoReply>never();
            })
            .build();
        loopback = new GrpcLoopback(GrpcBridge.service(service));
        ClientCall<EchoRequest, EchoReply> call = loopback.channel.newCall(EchoGrpc.getChatMethod(),
            CallOptions.DEFAULT);
        EchoRequest request = EchoRequest.newBuilder().setData(ByteString.copyFrom(new byte[REQUEST_DATA])).build();
        AtomicLong sent = new AtomicLong();
        call.start(new ClientCall.Listener<>() {
            @Override
            public void onReady() {
                while (call.isReady() && sent.get() < OFFERED) {
                    call.sendMessage(request);
                    sent.incrementAndGet();
                }
            }
        }, new Metadata());

        long steady = GrpcLoopback.awaitSteady(sent);
        assertThat(steady).as("requests the client could send").isBetween((long) ASKED, BOUND);
        assertThat(GrpcLoopback.awaitSteady(delivered)).as("requests the implementation received").isEqualTo(ASKED);
        call.cancel("done", null);
    }
}
