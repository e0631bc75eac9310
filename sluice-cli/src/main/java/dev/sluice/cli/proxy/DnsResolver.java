package dev.sluice.cli.proxy;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.dns.DnsResponseCode;
import io.netty.resolver.dns.DnsErrorCauseException;
import io.netty.resolver.dns.DnsNameResolver;
import io.netty.resolver.dns.DnsNameResolverBuilder;
import io.netty.resolver.dns.DnsNameResolverTimeoutException;
import io.netty.resolver.dns.DnsServerAddressStreamProviders;
import io.netty.resolver.dns.NoopAuthoritativeDnsServerCache;
import io.netty.resolver.dns.NoopDnsCache;
import io.netty.resolver.dns.NoopDnsCnameCache;
import io.netty.resolver.dns.SingletonDnsServerAddressStreamProvider;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Future;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

/**
 * A {@link Resolver} that asks the DNS servers every time, with Netty's asynchronous resolver on one daemon thread
 * of its own: no thread blocks on a lookup, and nothing is cached, so a changed answer is seen at the next lookup.
 *
 * <p>Why not {@link InetAddress#getAllByName}: it blocks its thread, and the JVM caches its answers for
 * {@code networkaddress.cache.ttl} (30 s by default), a setting read once per process, so the proxy could not make
 * its refresh period count. This resolver reads the name servers, search domains and {@code ndots} from
 * {@code /etc/resolv.conf} (as in a Kubernetes pod) and the entries of {@code /etc/hosts}; it does not consult other
 * sources of the system's name service ({@code nsswitch.conf}).
 *
 * <p>Thread-safe. {@link #dispose()} closes the socket and stops the thread.
 */
final class DnsResolver implements Resolver, Disposable {

    /** How long one query may wait for its answer; Netty's default, and shorter than most refresh periods. */
    static final long QUERY_TIMEOUT_MILLIS = 5000;

    private final EventLoopGroup group = new NioEventLoopGroup(1, new DefaultThreadFactory("sluice-dns", true));
    private final EventLoop loop = group.next();
    private final DnsNameResolver resolver;

    private DnsResolver(DnsNameResolverBuilder settings) {
        this.resolver = settings.eventLoop(loop)
            .datagramChannelType(NioDatagramChannel.class)
            .resolveCache(NoopDnsCache.INSTANCE)
            .cnameCache(NoopDnsCnameCache.INSTANCE)
            .authoritativeDnsServerCache(NoopAuthoritativeDnsServerCache.INSTANCE)
            .queryTimeoutMillis(QUERY_TIMEOUT_MILLIS)
            .build();
    }

    /** Asks the system's name servers, with its search domains. */
    static DnsResolver system() {
        return new DnsResolver(new DnsNameResolverBuilder()
            .nameServerProvider(DnsServerAddressStreamProviders.platformDefault()));
    }

    /** Asks {@code server} only, for names as given (no search domain): for tests against a local DNS server. */
    static DnsResolver using(InetSocketAddress server) {
        return new DnsResolver(new DnsNameResolverBuilder()
            .nameServerProvider(new SingletonDnsServerAddressStreamProvider(server))
            .searchDomains(List.of())
            .ndots(1));
    }

    @Override
    public Mono<List<InetAddress>> resolveAll(String name) {
        return Mono.create(sink -> {
            Runnable start = () -> {
                Future<List<InetAddress>> f = resolver.resolveAll(name);
                sink.onCancel(() -> f.cancel(false));
                f.addListener(done -> {
                    if (done.isSuccess()) {
                        sink.success(f.getNow());
                    } else {
                        sink.error(failure(done.cause()));
                    }
                });
            };
            // The resolver's state belongs to its event loop: start the lookup there.
            if (loop.inEventLoop()) {
                start.run();
            } else {
                loop.execute(start);
            }
        });
    }

    /** {@code cause} as a short reason: "unknown host", "no answer within 5000 ms", "DNS error ServFail(2)". */
    static UnknownHostException failure(Throwable cause) {
        String reason = null;
        Throwable t = cause;
        // Bounded by the depth, should the chain be a cycle.
        for (int depth = 0; t != null && depth < 8 && reason == null; depth++, t = t.getCause()) {
            if (t instanceof DnsNameResolverTimeoutException) {
                reason = "no answer within " + QUERY_TIMEOUT_MILLIS + " ms";
            } else if (t instanceof DnsErrorCauseException e && e.getCode() != null
                && !DnsResponseCode.NXDOMAIN.equals(e.getCode())) {
                reason = "DNS error " + e.getCode(); // e.g. "ServFail(2)"
            }
        }
        UnknownHostException out = new UnknownHostException(reason != null ? reason
            : cause instanceof UnknownHostException ? "unknown host" : String.valueOf(cause.getMessage()));
        out.initCause(cause);
        return out;
    }

    @Override
    public void dispose() {
        resolver.close();
        group.shutdownGracefully(0, 0, TimeUnit.SECONDS);
    }

    @Override
    public boolean isDisposed() {
        return group.isShuttingDown();
    }
}
