package dev.sluice.cli.proxy;

import dev.sluice.cli.address.Address;
import dev.sluice.cli.address.Scheme;
import picocli.CommandLine;

/**
 * One entry of {@code proxy --servers}: a fixed server in the address syntax of every command ({@code host:port},
 * {@code tcp://}, {@code tls://}, {@code ws://}, {@code unix:}), or {@code dns:NAME:PORT}, a name the proxy
 * re-resolves periodically, each address it has being one plaintext TCP server on {@code PORT} (a Kubernetes
 * headless service, a DNS round-robin pool). Parsing errors quote the entry, as picocli reports them with exit code 2.
 *
 * @param address the fixed server; for a {@code dns:} entry, the name to resolve and the servers' port
 * @param dns     whether {@code address}'s host is re-resolved
 */
public record ServerAddress(Address address, boolean dns) {

    static final String DNS_PREFIX = "dns:";

    /** A plaintext TCP entry: fixed, or a name to follow. */
    public ServerAddress(String host, int port, boolean dns) {
        this(Address.tcp(host, port), dns);
    }

    /** A fixed server. */
    public static ServerAddress of(Address server) {
        return new ServerAddress(server, false);
    }

    public static ServerAddress parse(String text) {
        if (!text.startsWith(DNS_PREFIX)) {
            return of(Address.parse(text));
        }
        String rest = text.substring(DNS_PREFIX.length());
        int colon = rest.lastIndexOf(':');
        // The name is a DNS name: no colon in it (an IP literal needs no resolving; give it as host:port).
        if (colon <= 0 || colon == rest.length() - 1 || rest.indexOf(':') != colon) {
            throw new IllegalArgumentException("expected dns:NAME:PORT, got '" + text + "'");
        }
        int port;
        try {
            port = Integer.parseInt(rest.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("port must be a number in dns:NAME:PORT, got '" + text + "'");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port must be between 1 and 65535 in dns:NAME:PORT, got '" + text
                + "'");
        }
        return new ServerAddress(rest.substring(0, colon), port, true);
    }

    /** The host of a fixed TCP, TLS or WebSocket entry, or the name to resolve; null for a Unix socket. */
    public String host() {
        return address.host();
    }

    /** The servers' port; -1 for a Unix socket. */
    public int port() {
        return address.port();
    }

    /**
     * As written on the command line, and the target's name in logs and metrics: {@code host:port} for plaintext
     * TCP, {@code dns:NAME:PORT}, or the full address ({@code tls://host:port}, {@code unix:/run/a.sock}).
     */
    @Override
    public String toString() {
        if (dns) {
            return DNS_PREFIX + address.hostPort();
        }
        return address.scheme() == Scheme.TCP ? address.hostPort() : address.toString();
    }

    /** picocli converter. */
    public static final class Converter implements CommandLine.ITypeConverter<ServerAddress> {
        @Override
        public ServerAddress convert(String value) {
            try {
                return parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
