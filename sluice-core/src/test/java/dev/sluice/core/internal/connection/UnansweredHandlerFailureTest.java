package dev.sluice.core.internal.connection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testkit.Stderr;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * A fire-and-forget or metadata-push handler has nobody to answer: its failure is logged at WARN with the stream
 * id, whether it threw, returned {@code Mono.error}, or failed later. The default level (INFO) shows it.
 */
class UnansweredHandlerFailureTest {

    private final Sinks.Empty<Void> later = Sinks.empty();

    private final RSocket failing = new RSocket() {
        @Override
        public Mono<Void> fireAndForget(Payload p) {
            String how = p.dataUtf8();
            p.release();
            return switch (how) {
                case "throw" -> throw new IllegalStateException("thrown by the handler");
                case "error" -> Mono.error(new IllegalStateException("no route: unknown.Service/Method"));
                default -> later.asMono();
            };
        }

        @Override
        public Mono<Void> metadataPush(Payload p) {
            p.release();
            return Mono.error(new IllegalStateException("push refused"));
        }
    };

    @Test
    void everyFailureIsAWarningNamingItsStream() {
        EnginePeer peer = EnginePeer.server(failing);
        String err;
        try {
            err = Stderr.during(() -> {
                peer.send(PeerFrames.fireAndForget(1, "throw"));
                peer.send(PeerFrames.fireAndForget(3, "error"));
                peer.send(PeerFrames.fireAndForget(5, "later"));
                later.tryEmitError(new IllegalStateException("failed after the handler returned"));
                peer.send(PeerFrames.metadataPush("m"));
            });
            assertThat(peer.written()).as("nothing is answered").isEmpty();
        } finally {
            peer.close();
        }
        assertThat(err)
            .contains("WARN dev.sluice.core.internal.stream.Responders - fire-and-forget handler failed on stream 1\n"
                + "java.lang.IllegalStateException: thrown by the handler")
            .contains("WARN dev.sluice.core.internal.stream.Responders - fire-and-forget handler failed on stream 3\n"
                + "java.lang.IllegalStateException: no route: unknown.Service/Method")
            .contains("WARN dev.sluice.core.internal.stream.Responders - fire-and-forget handler failed on stream 5\n"
                + "java.lang.IllegalStateException: failed after the handler returned")
            .contains("WARN dev.sluice.core.internal.stream.Responders - metadata-push handler failed\n"
                + "java.lang.IllegalStateException: push refused");
    }
}
