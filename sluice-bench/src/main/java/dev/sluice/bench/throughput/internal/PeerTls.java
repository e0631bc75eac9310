package dev.sluice.bench.throughput.internal;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.nio.file.Path;

/**
 * TLS for the peers' benchmark mains (rsocket-java, grpc-java), set up as Sluice's mains get it, so that the TLS
 * cells compare stacks and not TLS settings: the same files ({@code DIR/server.pem} and {@code DIR/server.key}
 * served, {@code DIR/ca.pem} trusted), TLS 1.3 and 1.2 offered, the provider's default cipher suites, OpenSSL
 * (netty-tcnative's BoringSSL) when its native library loads and the JDK's provider otherwise, as Sluice's
 * {@code TlsServer} and {@code TlsClient} choose, and the JDK's everywhere with
 * {@code --jvm-arg -Dsluice.transport.noOpenSsl=true}. Stateless.
 */
public final class PeerTls {

    /** The protocol versions offered, newest first: the same as Sluice's. */
    public static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private PeerTls() {
    }

    /** OpenSSL when it loads in this process and is not turned off, else the JDK's provider: Sluice's rule. */
    public static SslProvider provider() {
        return !Boolean.getBoolean("sluice.transport.noOpenSsl") && OpenSsl.isAvailable() ? SslProvider.OPENSSL
            : SslProvider.JDK;
    }

    /** A server context builder serving {@code DIR/server.pem} with {@code DIR/server.key}, {@code DIR} from --tls. */
    public static SslContextBuilder server(ChildOptions options) {
        Path dir = Path.of(options.tls());
        return SslContextBuilder.forServer(dir.resolve("server.pem").toFile(), dir.resolve("server.key").toFile())
            .sslProvider(provider())
            .protocols(PROTOCOLS);
    }

    /**
     * A client context builder trusting {@code DIR/ca.pem} only, {@code DIR} from --tls, and checking that the
     * server's certificate names the host connected to, as Sluice's client does by default.
     */
    public static SslContextBuilder client(ChildOptions options) {
        return SslContextBuilder.forClient()
            .trustManager(Path.of(options.tls(), "ca.pem").toFile())
            .sslProvider(provider())
            .protocols(PROTOCOLS)
            .endpointIdentificationAlgorithm("HTTPS");
    }
}
