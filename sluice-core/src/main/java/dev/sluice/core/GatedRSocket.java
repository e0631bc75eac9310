package dev.sluice.core;

import java.util.concurrent.atomic.AtomicBoolean;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A handler behind a {@link RequestGate}: each request asks the gate first. Admitted at once, it goes straight to
 * the handler (no operators added); after a wait, it goes when the gate's {@code Mono} completes; refused, its
 * payload is released and the gate's error (ERROR[REJECTED]) is the answer.
 */
final class GatedRSocket extends DelegatingRSocket {

    /** What the gate sees for a channel, whose first payload is still inside its publisher. Never released. */
    private static final Payload CHANNEL_OPENING = RefCountedPayload.create(null, null);

    private final RequestGate gate;

    GatedRSocket(RSocket delegate, RequestGate gate) {
        super(delegate);
        this.gate = gate;
    }

    @Override
    public Mono<Void> fireAndForget(Payload payload) {
        Mono<Void> admission = gate.admit(RequestType.FIRE_AND_FORGET, payload);
        if (admission == null) {
            return delegate.fireAndForget(payload);
        }
        Once once = new Once(payload);
        return admission.then(Mono.defer(() -> once.take() ? delegate.fireAndForget(payload) : Mono.empty()))
            .doFinally(s -> once.releaseIfUnused());
    }

    @Override
    public Mono<Payload> requestResponse(Payload payload) {
        Mono<Void> admission = gate.admit(RequestType.REQUEST_RESPONSE, payload);
        if (admission == null) {
            return delegate.requestResponse(payload);
        }
        Once once = new Once(payload);
        return admission.then(Mono.defer(() -> once.take() ? delegate.requestResponse(payload) : Mono.empty()))
            .doFinally(s -> once.releaseIfUnused());
    }

    @Override
    public Flux<Payload> requestStream(Payload payload) {
        Mono<Void> admission = gate.admit(RequestType.REQUEST_STREAM, payload);
        if (admission == null) {
            return delegate.requestStream(payload);
        }
        Once once = new Once(payload);
        return admission.thenMany(Flux.defer(() -> once.take() ? delegate.requestStream(payload) : Flux.empty()))
            .doFinally(s -> once.releaseIfUnused());
    }

    @Override
    public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
        Mono<Void> admission = gate.admit(RequestType.REQUEST_CHANNEL, CHANNEL_OPENING);
        if (admission == null) {
            return delegate.requestChannel(payloads);
        }
        return admission.thenMany(Flux.defer(() -> delegate.requestChannel(payloads)));
    }

    /** Hands the payload to the handler at most once; releases it if the handler never got it. */
    private static final class Once extends AtomicBoolean {
        private final transient Payload payload;

        Once(Payload payload) {
            this.payload = payload;
        }

        boolean take() {
            return compareAndSet(false, true);
        }

        void releaseIfUnused() {
            if (compareAndSet(false, true)) {
                payload.release();
            }
        }
    }
}
