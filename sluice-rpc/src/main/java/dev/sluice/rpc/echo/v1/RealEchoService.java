package dev.sluice.rpc.echo.v1;

import dev.sluice.rpc.RpcException;
import dev.sluice.rpc.RpcStatus;
import java.util.StringJoiner;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The Echo service, as {@code echo.proto} describes it. {@code Say} with the text {@code fail:CODE:message} (e.g.
 * {@code fail:NOT_FOUND:nope}) fails with that status and message instead, so that peers can test error paths;
 * an unknown CODE fails with {@link RpcStatus#INVALID_ARGUMENT}.
 *
 * <p>Stateless; thread-safe. Streams honour the caller's demand: {@code Repeat} makes a reply only when asked.
 */
public final class RealEchoService implements EchoService {

    /** The prefix of a {@code Say} text that asks for a failure. */
    public static final String FAIL_PREFIX = "fail:";

    @Override
    public Mono<EchoReply> say(EchoRequest request) {
        String text = request.getText();
        if (text.startsWith(FAIL_PREFIX)) {
            return Mono.error(requestedFailure(text));
        }
        return Mono.just(reply(request, 0));
    }

    @Override
    public Flux<EchoReply> repeat(EchoRequest request) {
        // uint32 on the wire: a count above Integer.MAX_VALUE arrives negative; Flux.range cannot go that far.
        int count = request.getCount() < 0 ? Integer.MAX_VALUE : request.getCount();
        return Flux.range(0, count).map(i -> reply(request, i));
    }

    @Override
    public Mono<EchoReply> collect(Flux<EchoRequest> requests) {
        return requests
            .collect(Collected::new, Collected::add)
            .map(c -> EchoReply.newBuilder().setText(c.texts.toString()).setIndex(c.count).build());
    }

    @Override
    public Flux<EchoReply> chat(Flux<EchoRequest> requests) {
        return requests.index().map(t -> reply(t.getT2(), t.getT1().intValue()));
    }

    private static EchoReply reply(EchoRequest request, int index) {
        return EchoReply.newBuilder().setText(request.getText()).setData(request.getData()).setIndex(index).build();
    }

    /** {@code fail:CODE:message} as the failure it asks for. */
    static RpcException requestedFailure(String text) {
        int colon = text.indexOf(':', FAIL_PREFIX.length());
        String code = colon < 0 ? text.substring(FAIL_PREFIX.length()) : text.substring(FAIL_PREFIX.length(), colon);
        String message = colon < 0 ? "" : text.substring(colon + 1);
        RpcStatus status = RpcStatus.fromName(code);
        if (status == null || status == RpcStatus.OK) {
            return new RpcException(RpcStatus.INVALID_ARGUMENT, "Say asked to fail with an unknown status: " + code);
        }
        return new RpcException(status, message);
    }

    /** The texts and the count of a Collect call. Confined to the call's subscriber. */
    private static final class Collected {
        final StringJoiner texts = new StringJoiner(",");
        int count;

        void add(EchoRequest request) {
            texts.add(request.getText());
            count++;
        }
    }
}
