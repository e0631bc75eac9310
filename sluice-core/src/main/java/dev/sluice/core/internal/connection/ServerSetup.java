package dev.sluice.core.internal.connection;

import dev.sluice.core.ConnectionSetupPayload;
import dev.sluice.core.Leases;
import dev.sluice.core.RSocket;
import dev.sluice.core.exceptions.RSocketErrorException;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.core.internal.stream.Errors;
import dev.sluice.core.internal.stream.Frames;
import dev.sluice.frame.ErrorCodes;
import dev.sluice.frame.SetupFrame;
import io.netty.buffer.ByteBuf;
import java.time.Duration;
import java.util.function.Function;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.scheduler.Scheduler;

/**
 * The server's SETUP handling: checks what this server supports (version 1.x, no resume, lease only when
 * configured), with the same error codes and messages as rsocket-java, then runs the acceptor.
 */
public final class ServerSetup implements SetupHandler {

    private final SocketAcceptor acceptor;
    private final Function<Scheduler, Leases> leases;
    private final boolean leaseSupported;

    /** @param leases builds each leasing connection's leases; null when this server does not lease */
    public ServerSetup(SocketAcceptor acceptor,
                       Function<Scheduler, Leases> leases) {
        this.acceptor = acceptor;
        this.leases = leases;
        this.leaseSupported = leases != null;
    }

    @Override
    public void onSetup(RSocketConnection connection, ByteBuf buf, int off, int len) {
        int major = SetupFrame.majorVersion(buf, off);
        int minor = SetupFrame.minorVersion(buf, off);
        if (major != 1) {
            connection.rejectSetup(ErrorCodes.INVALID_SETUP, "Unsupported version " + major + "." + minor
                + ": this server speaks 1.x");
            return;
        }
        if (SetupFrame.resumeEnabled(buf, off)) {
            connection.rejectSetup(ErrorCodes.UNSUPPORTED_SETUP, "resume not supported");
            return;
        }
        boolean lease = SetupFrame.leaseEnabled(buf, off);
        if (lease && !leaseSupported) {
            connection.rejectSetup(ErrorCodes.INVALID_SETUP, "lease is not supported");
            return;
        }
        int interval = SetupFrame.keepAliveIntervalMillis(buf, off);
        int lifetime = SetupFrame.maxLifetimeMillis(buf, off);
        if (interval <= 0 || lifetime <= 0) {
            connection.rejectSetup(ErrorCodes.INVALID_SETUP, "keep-alive interval and max lifetime must be > 0,"
                + " got interval=" + interval + " ms, max lifetime=" + lifetime + " ms");
            return;
        }
        Duration keepAliveInterval = Duration.ofMillis(interval);
        Duration maxLifetime = Duration.ofMillis(lifetime);
        ConnectionSetupPayload setup = new ConnectionSetupPayload(
            Frames.payload(buf, off, len, SetupFrame.payloadStart(buf, off)), keepAliveInterval, maxLifetime,
            SetupFrame.metadataMimeType(buf, off), SetupFrame.dataMimeType(buf, off), lease);
        connection.beginAccepting();
        try {
            acceptor.accept(setup, connection.requester())
                .subscribe(new AcceptorSubscriber(connection, setup, keepAliveInterval, maxLifetime,
                    lease ? leases : null));
        } catch (Throwable t) {
            setup.release();
            connection.rejectSetup(ErrorCodes.REJECTED_SETUP, Errors.message(t));
        }
    }

    /** Waits for the acceptor's handler and finishes the handshake on the event loop. */
    private static final class AcceptorSubscriber implements CoreSubscriber<RSocket> {

        private final RSocketConnection connection;
        private final ConnectionSetupPayload setup;
        private final Duration interval;
        private final Duration maxLifetime;
        private final Function<Scheduler, Leases> leases;
        private boolean done;

        AcceptorSubscriber(RSocketConnection connection, ConnectionSetupPayload setup, Duration interval,
                           Duration maxLifetime, Function<Scheduler, Leases> leases) {
            this.leases = leases;
            this.connection = connection;
            this.setup = setup;
            this.interval = interval;
            this.maxLifetime = maxLifetime;
        }

        @Override
        public void onSubscribe(Subscription s) {
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(RSocket handler) {
            done = true;
            connection.execute(() -> {
                setup.release();
                connection.completeSetup(handler, interval, maxLifetime, leases);
            });
        }

        @Override
        public void onError(Throwable t) {
            done = true;
            int code = t instanceof RSocketErrorException e && ErrorCodes.isConnectionLevel(e.errorCode())
                ? e.errorCode() : ErrorCodes.REJECTED_SETUP;
            connection.execute(() -> {
                setup.release();
                connection.rejectSetup(code, Errors.message(t));
            });
        }

        @Override
        public void onComplete() {
            if (!done) {
                connection.execute(() -> {
                    setup.release();
                    connection.rejectSetup(ErrorCodes.REJECTED_SETUP, "the acceptor returned no handler");
                });
            }
        }
    }
}
