package dev.sluice.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.transport.ClientTransport;
import java.time.Duration;
import reactor.core.Exceptions;

/** One client's try at a server, for the failure tests of every transport: did it work, and if not, why. */
final class ClientProbe {

    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private ClientProbe() {
    }

    /** Connects and makes one request-response, which must be echoed. */
    static void roundTrip(ClientTransport transport) {
        Connection c = RSocketConnector.create().connect(transport).block(TIMEOUT);
        try {
            Payload reply = c.requestResponse(Payload.create("still serving")).block(TIMEOUT);
            assertThat(reply.dataUtf8()).isEqualTo("still serving");
            reply.release();
        } finally {
            c.dispose();
        }
    }

    /**
     * The error of connecting and making one request: the connect's own, or, when the connection opened, the
     * request's. Either way bounded by the timeout.
     */
    static Throwable firstFailure(ClientTransport transport) {
        Connection c;
        try {
            c = RSocketConnector.create().connect(transport).block(TIMEOUT);
        } catch (RuntimeException e) {
            return Exceptions.unwrap(e);
        }
        try {
            Payload reply = c.requestResponse(Payload.create("should fail")).block(TIMEOUT);
            reply.release();
            throw new AssertionError("the request succeeded");
        } catch (RuntimeException e) {
            return Exceptions.unwrap(e);
        } finally {
            c.dispose();
        }
    }
}
