package dev.sluice.rpc.grpc;

import dev.sluice.rpc.echo.v1.EchoReply;
import dev.sluice.rpc.echo.v1.EchoRequest;
import dev.sluice.rpc.echo.v1.EchoService;
import dev.sluice.rpc.echo.v1.RealEchoService;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The real Echo service, watched: how many Say calls it answered, how many replies Repeat made, and whether a
 * Repeat or a Chat was cancelled. {@code Say} with the text {@code never} never answers (until cancelled).
 */
final class ObservedEcho implements EchoService {

    final AtomicInteger says = new AtomicInteger();
    final AtomicLong repeated = new AtomicLong();
    final CountDownLatch cancelled = new CountDownLatch(1);
    private final RealEchoService real = new RealEchoService();

    @Override
    public Mono<EchoReply> say(EchoRequest request) {
        if (request.getText().equals("never")) {
            return Mono.<EchoReply>never().doOnCancel(cancelled::countDown);
        }
        int n = says.incrementAndGet();
        return real.say(request).map(r -> r.toBuilder().setIndex(n).build());
    }

    @Override
    public Flux<EchoReply> repeat(EchoRequest request) {
        return real.repeat(request).doOnNext(r -> repeated.incrementAndGet()).doOnCancel(cancelled::countDown);
    }

    @Override
    public Mono<EchoReply> collect(Flux<EchoRequest> requests) {
        return real.collect(requests);
    }

    @Override
    public Flux<EchoReply> chat(Flux<EchoRequest> requests) {
        return real.chat(requests).doOnCancel(cancelled::countDown);
    }
}
