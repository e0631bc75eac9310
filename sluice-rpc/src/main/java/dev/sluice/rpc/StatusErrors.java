package dev.sluice.rpc;

import dev.sluice.core.exceptions.ApplicationErrorException;
import dev.sluice.core.exceptions.CanceledException;
import dev.sluice.core.exceptions.ConnectionCloseException;
import dev.sluice.core.exceptions.ConnectionClosedException;
import dev.sluice.core.exceptions.ConnectionErrorException;
import dev.sluice.core.exceptions.InvalidException;
import dev.sluice.core.exceptions.RSocketErrorException;
import dev.sluice.core.exceptions.RejectedException;
import dev.sluice.core.exceptions.UnsupportedInteractionException;

/** Failures to the wire on the server side, and back to {@link RpcException}s on the client side. Stateless. */
final class StatusErrors {

    private StatusErrors() {
    }

    /**
     * What a handler's failure is sent as: an {@link RpcException} as APPLICATION_ERROR with its status; an
     * RSocket error the handler chose (REJECTED, say) as itself; anything else as {@link RpcStatus#UNKNOWN}, as
     * gRPC does, with the exception's message.
     */
    static Throwable toWire(Throwable t) {
        if (t instanceof RpcException e) {
            return new ApplicationErrorException(e.wireMessage(), e);
        }
        if (t instanceof RSocketErrorException) {
            return t;
        }
        String message = t.getMessage() != null ? t.getMessage() : t.getClass().getName();
        return new ApplicationErrorException(new RpcException(RpcStatus.UNKNOWN, message).wireMessage(), t);
    }

    /** What a client sees for a failed call: always an {@link RpcException}. */
    static RpcException fromCall(Throwable t) {
        if (t instanceof RpcException e) {
            return e;
        }
        if (t instanceof ApplicationErrorException) {
            RpcException e = RpcException.fromWireMessage(t.getMessage());
            return new RpcException(e.status(), e.description(), t);
        }
        RpcStatus status;
        if (t instanceof RejectedException || t instanceof ConnectionClosedException
            || t instanceof ConnectionCloseException || t instanceof ConnectionErrorException) {
            // Rejected before the handler (no lease, rate limited) or no connection: worth retrying elsewhere.
            status = RpcStatus.UNAVAILABLE;
        } else if (t instanceof CanceledException) {
            status = RpcStatus.CANCELLED;
        } else if (t instanceof UnsupportedInteractionException) {
            status = RpcStatus.UNIMPLEMENTED;
        } else if (t instanceof InvalidException) {
            status = RpcStatus.INTERNAL;
        } else {
            status = RpcStatus.UNKNOWN;
        }
        String message = t.getMessage() != null ? t.getMessage() : t.getClass().getName();
        return new RpcException(status, message, t);
    }
}
