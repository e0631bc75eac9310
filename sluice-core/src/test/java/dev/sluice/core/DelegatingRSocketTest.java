package dev.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Every call of a {@link DelegatingRSocket} that is not overridden reaches its delegate, unchanged. */
class DelegatingRSocketTest {

    @Test
    void everyCallIsForwarded() {
        List<String> calls = new ArrayList<>();
        Mono<Payload> answer = Mono.empty();
        Flux<Payload> stream = Flux.empty();
        RSocket target = new RSocket() {
            @Override
            public Mono<Void> fireAndForget(Payload p) {
                calls.add("fnf " + p.dataUtf8());
                p.release();
                return Mono.empty();
            }

            @Override
            public Mono<Payload> requestResponse(Payload p) {
                calls.add("rr " + p.dataUtf8());
                p.release();
                return answer;
            }

            @Override
            public Flux<Payload> requestStream(Payload p) {
                calls.add("rs " + p.dataUtf8());
                p.release();
                return stream;
            }

            @Override
            public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
                calls.add("rc");
                return stream;
            }

            @Override
            public Mono<Void> metadataPush(Payload p) {
                calls.add("push");
                p.release();
                return Mono.empty();
            }

            @Override
            public double availability() {
                return 0.25;
            }

            @Override
            public void dispose() {
                calls.add("dispose");
            }

            @Override
            public boolean isDisposed() {
                return true;
            }
        };
        RSocket wrapper = new DelegatingRSocket(target) { };
        wrapper.fireAndForget(Payload.create("a"));
        assertThat(wrapper.requestResponse(Payload.create("b"))).isSameAs(answer);
        assertThat(wrapper.requestStream(Payload.create("c"))).isSameAs(stream);
        assertThat(wrapper.requestChannel(Flux.empty())).isSameAs(stream);
        wrapper.metadataPush(Payload.create("", "m"));
        assertThat(wrapper.availability()).isEqualTo(0.25);
        assertThat(wrapper.isDisposed()).isTrue();
        wrapper.dispose();
        assertThat(calls).containsExactly("fnf a", "rr b", "rs c", "rc", "push", "dispose");
    }

    @Test
    void aDelegateIsRequired() {
        assertThatThrownBy(() -> new DelegatingRSocket(null) { }).isInstanceOf(NullPointerException.class)
            .hasMessage("delegate");
    }
}
