package dev.sluice.rpc.grpc;

import dev.sluice.rpc.echo.v1.EchoReply;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A gRPC call's Echo replies, collected by a grpc-java stub's observer. In the test jar: sluice-cli's tests of
 * {@code echo-server --grpc-address} use it too.
 */
public final class Replies implements StreamObserver<EchoReply> {

    private final List<EchoReply> replies = new ArrayList<>();
    private final CompletableFuture<List<EchoReply>> done = new CompletableFuture<>();

    @Override
    public synchronized void onNext(EchoReply value) {
        replies.add(value);
    }

    @Override
    public void onError(Throwable t) {
        done.completeExceptionally(t);
    }

    @Override
    public synchronized void onCompleted() {
        done.complete(List.copyOf(replies));
    }

    /** The replies once the call completed; throws its failure, or on {@code timeout}. */
    public List<EchoReply> await(Duration timeout) throws Exception {
        return done.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
}
