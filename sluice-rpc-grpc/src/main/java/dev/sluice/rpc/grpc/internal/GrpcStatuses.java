package dev.sluice.rpc.grpc.internal;

import dev.sluice.rpc.RpcException;
import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;

/** A handler's failure as the gRPC status its client receives. Stateless. */
final class GrpcStatuses {

    private GrpcStatuses() {
    }

    /**
     * An {@link RpcException}'s status and description; a gRPC status a handler chose as itself; anything else as
     * {@code UNKNOWN} with the exception's message, as Sluice RPC sends it over RSocket.
     */
    static Status of(Throwable t) {
        if (t instanceof RpcException e) {
            Status status = Status.fromCodeValue(e.status().value()).withCause(e);
            return e.description().isEmpty() ? status : status.withDescription(e.description());
        }
        if (t instanceof StatusRuntimeException e) {
            return e.getStatus();
        }
        if (t instanceof StatusException e) {
            return e.getStatus();
        }
        String message = t.getMessage() != null ? t.getMessage() : t.getClass().getName();
        return Status.UNKNOWN.withDescription(message).withCause(t);
    }
}
