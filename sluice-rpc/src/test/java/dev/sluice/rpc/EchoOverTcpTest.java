package dev.sluice.rpc;

import com.google.protobuf.ByteString;
import dev.sluice.rpc.echo.v1.EchoClient;
import dev.sluice.rpc.echo.v1.EchoReply;
import dev.sluice.rpc.echo.v1.EchoRequest;
import dev.sluice.rpc.echo.v1.EchoRpc;
import dev.sluice.rpc.echo.v1.RealEchoService;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

/** The Echo service end to end: the generated client against the router over loopback TCP, every kind of call. */
class EchoOverTcpTest {

    private LoopbackRpc loopback;
    private EchoClient echo;

    @BeforeEach
    void start() {
        loopback = new LoopbackRpc(RpcRouter.of(EchoRpc.bind(new RealEchoService())));
        echo = EchoRpc.client(loopback.connection);
    }

    @AfterEach
    void stop() {
        loopback.close();
    }

    private static EchoRequest request(String text) {
        return EchoRequest.newBuilder().setText(text).build();
    }

    @Test
    void sayEchoesTextAndData() {
        EchoRequest request = EchoRequest.newBuilder().setText("hello").setData(ByteString.copyFromUtf8("bytes"))
            .build();
        StepVerifier.create(echo.say(request))
            .expectNext(EchoReply.newBuilder().setText("hello").setData(ByteString.copyFromUtf8("bytes")).build())
            .expectComplete()
            .verify(LoopbackRpc.TIMEOUT);
    }

    @Test
    void sayOfTheDefaultMessageTravelsAsEmptyData() {
        StepVerifier.create(echo.say(EchoRequest.getDefaultInstance()))
            .expectNext(EchoReply.getDefaultInstance())
            .expectComplete()
            .verify(LoopbackRpc.TIMEOUT);
    }

    @Test
    void repeatDeliversOnlyWhatWasRequested() {
        StepVerifier.create(echo.repeat(EchoRequest.newBuilder().setText("r").setCount(5).build())
                .map(EchoReply::getIndex), 0)
            .thenRequest(2)
            .expectNext(0, 1)
            .thenRequest(3)
            .expectNext(2, 3, 4)
            .expectComplete()
            .verify(LoopbackRpc.TIMEOUT);
    }

    @Test
    void repeatOfZeroCompletesEmpty() {
        StepVerifier.create(echo.repeat(request("none"))).expectComplete().verify(LoopbackRpc.TIMEOUT);
    }

    @Test
    void collectJoinsTheTextsAndCountsThem() {
        StepVerifier.create(echo.collect(Flux.just(request("a"), request("b"), request("c"))))
            .expectNext(EchoReply.newBuilder().setText("a,b,c").setIndex(3).build())
            .expectComplete()
            .verify(LoopbackRpc.TIMEOUT);
    }

    @Test
    void collectOfOneMessage() {
        StepVerifier.create(echo.collect(Flux.just(request("only"))))
            .expectNext(EchoReply.newBuilder().setText("only").setIndex(1).build())
            .expectComplete()
            .verify(LoopbackRpc.TIMEOUT);
    }

    @Test
    void collectOfNoMessageStillReachesTheService() {
        StepVerifier.create(echo.collect(Flux.empty()))
            .expectNext(EchoReply.newBuilder().setText("").setIndex(0).build())
            .expectComplete()
            .verify(LoopbackRpc.TIMEOUT);
    }

    @Test
    void chatAnswersEachRequestInOrder() {
        List<EchoRequest> requests = List.of(request("x"), request("y"), request("z"));
        StepVerifier.create(echo.chat(Flux.fromIterable(requests)).map(r -> r.getText() + r.getIndex()))
            .expectNext("x0", "y1", "z2")
            .expectComplete()
            .verify(LoopbackRpc.TIMEOUT);
    }

    @Test
    void chatWithNoMessageCompletesEmpty() {
        StepVerifier.create(echo.chat(Flux.empty())).expectComplete().verify(LoopbackRpc.TIMEOUT);
    }

    @Test
    void chatIsPacedByTheCallersDemand() {
        Flux<EchoRequest> many = Flux.range(0, 1000).map(i -> request("m" + i));
        StepVerifier.create(echo.chat(many).map(EchoReply::getIndex), 0)
            .thenRequest(3)
            .expectNext(0, 1, 2)
            .thenRequest(2)
            .expectNext(3, 4)
            .thenCancel()
            .verify(LoopbackRpc.TIMEOUT);
    }

    @Test
    void aLongStreamArrivesWhole() {
        StepVerifier.create(echo.repeat(EchoRequest.newBuilder().setCount(10_000).build()).count())
            .expectNext(10_000L)
            .expectComplete()
            .verify(LoopbackRpc.TIMEOUT);
    }
}
