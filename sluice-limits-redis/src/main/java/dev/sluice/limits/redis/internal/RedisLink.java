package dev.sluice.limits.redis.internal;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * One Lettuce connection to Redis that runs the {@link BucketScript}, opened on first use and healed when lost.
 *
 * <p>What it does so that an unreachable Redis costs a decision as little as possible:
 * <ul>
 * <li>The connection is opened lazily, so a limiter can be built while Redis is down. A failed attempt is not
 *     repeated for {@link #RETRY_DELAY}: until then every call fails at once rather than dialling again.
 * <li>Once connected, Lettuce reconnects by itself (every 1 ms to 1 s, doubling, when this link made the client
 *     resources), and commands issued while it is disconnected are <em>rejected</em> at once rather than buffered
 *     ({@code DisconnectedBehavior.REJECT_COMMANDS}).
 * <li>At most {@link #REQUEST_QUEUE_SIZE} commands wait for an answer; beyond that Lettuce rejects new ones at
 *     once, which bounds the memory a hung server can make us hold.
 * </ul>
 * The caller bounds each call with its own timeout; Lettuce's command timeout is off.
 *
 * <p>Not part of the API. Thread-safe. Results complete on Lettuce's I/O threads.
 */
public final class RedisLink implements AutoCloseable {

    /** How long after a failed connection attempt the next one may start. */
    public static final Duration RETRY_DELAY = Duration.ofSeconds(1);

    /** The most commands that may await an answer at once. */
    public static final int REQUEST_QUEUE_SIZE = 16_384;

    private static final long RETRY_DELAY_NANOS = RETRY_DELAY.toNanos();
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(2);

    private final RedisClient client;
    private final ClientResources ownedResources;
    private final RedisURI uri;
    private final AtomicReference<Attempt> attempt = new AtomicReference<>();
    private volatile boolean closed;

    /**
     * A link to {@code uri}, not yet connected.
     *
     * @param resources Lettuce's threads and timers to share, or null to make (and later shut down) our own
     * @param connectTimeout how long a connection attempt may take
     */
    public RedisLink(RedisURI uri, ClientResources resources, Duration connectTimeout) {
        Objects.requireNonNull(uri, "uri");
        // The URI's timeout bounds the handshake (HELLO, AUTH, SELECT) of a new connection: a hung server must not
        // hold the link in "connecting" for Lettuce's default minute. Copied, to leave the caller's URI alone.
        this.uri = RedisURI.builder(uri).withTimeout(connectTimeout).build();
        if (resources == null) {
            // Our own threads, as few as Lettuce takes (2 each): one connection needs no more.
            this.ownedResources = DefaultClientResources.builder()
                    .ioThreadPoolSize(2)
                    .computationThreadPoolSize(2)
                    .reconnectDelay(Delay.exponential(Duration.ofMillis(1), Duration.ofSeconds(1), 2,
                            TimeUnit.MILLISECONDS))
                    .build();
        } else {
            this.ownedResources = null;
        }
        this.client = RedisClient.create(resources != null ? resources : ownedResources);
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .requestQueueSize(REQUEST_QUEUE_SIZE)
                .socketOptions(SocketOptions.builder().connectTimeout(connectTimeout).keepAlive(true).build())
                .timeoutOptions(TimeoutOptions.builder().timeoutCommands(false).build())
                .build());
    }

    /**
     * Runs the bucket script with {@code keys} and {@code args} when subscribed: by its SHA-1, and once more by its
     * source if the server does not know it. Cancelling the subscription cancels the command (its answer, when it
     * comes, is dropped).
     */
    public Mono<List<Object>> eval(String[] keys, String... args) {
        return Mono.defer(() -> {
            CompletableFuture<StatefulRedisConnection<String, String>> connection = connection();
            if (connection.isDone() && !connection.isCompletedExceptionally()) {
                return evalOn(connection.join(), keys, args);
            }
            // A future of our own per call: cancelling it (a timeout) leaves the shared one alone, and a connection
            // failure that comes after the cancel is not reported as an error nobody handled.
            return Mono.fromFuture(connection.thenApply(Function.identity())).flatMap(c -> evalOn(c, keys, args));
        });
    }

    private static Mono<List<Object>> evalOn(StatefulRedisConnection<String, String> connection, String[] keys,
            String[] args) {
        RedisAsyncCommands<String, String> commands = connection.async();
        Mono<List<Object>> bySha = Mono.fromFuture(
                commands.<List<Object>>evalsha(BucketScript.SHA1, ScriptOutputType.MULTI, keys, args)
                        .toCompletableFuture());
        return bySha.onErrorResume(RedisNoScriptException.class, e -> Mono.fromFuture(
                commands.<List<Object>>eval(BucketScript.SOURCE, ScriptOutputType.MULTI, keys, args)
                        .toCompletableFuture()));
    }

    /** The connection: open, being opened, or (for {@link #RETRY_DELAY} after a failed attempt) failed. */
    private CompletableFuture<StatefulRedisConnection<String, String>> connection() {
        for (;;) {
            Attempt current = attempt.get();
            if (current != null) {
                CompletableFuture<StatefulRedisConnection<String, String>> f = current.connection;
                if (!f.isCompletedExceptionally() || System.nanoTime() - current.failedAt < RETRY_DELAY_NANOS) {
                    return f;
                }
            }
            if (closed) {
                return CompletableFuture.failedFuture(new RedisException("redis rate limiter closed"));
            }
            Attempt next = new Attempt();
            if (attempt.compareAndSet(current, next)) {
                connect(next);
                return next.connection;
            }
        }
    }

    private void connect(Attempt next) {
        CompletableFuture<StatefulRedisConnection<String, String>> opening;
        try {
            opening = client.connectAsync(StringCodec.UTF8, uri).toCompletableFuture();
        } catch (RuntimeException e) {
            opening = CompletableFuture.failedFuture(e);
        }
        opening.whenComplete((connection, error) -> {
            if (error == null && closed) {
                connection.closeAsync();
                error = new RedisException("redis rate limiter closed");
            }
            if (error != null) {
                // Written before the future completes, so whoever sees it failed sees when.
                next.failedAt = System.nanoTime();
                next.connection.completeExceptionally(error);
            } else {
                next.connection.complete(connection);
            }
        });
    }

    /** Closes the connection and shuts down the client (and the resources, if this link made them). Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        // Close the connection before shutting the client down: a connection reconnecting (to a Redis that is
        // gone) would otherwise be cut off mid-attempt. An attempt still pending closes what it opens.
        Attempt last = attempt.get();
        if (last != null && last.connection.isDone() && !last.connection.isCompletedExceptionally()) {
            try {
                last.connection.join().closeAsync().get(SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                // The client's shutdown below closes it anyway.
            }
        }
        client.shutdown(Duration.ZERO, SHUTDOWN_TIMEOUT);
        if (ownedResources != null) {
            ownedResources.shutdown(0, SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).syncUninterruptibly();
        }
    }

    /** One attempt to connect. */
    private static final class Attempt {
        final CompletableFuture<StatefulRedisConnection<String, String>> connection = new CompletableFuture<>();
        volatile long failedAt;
    }
}
