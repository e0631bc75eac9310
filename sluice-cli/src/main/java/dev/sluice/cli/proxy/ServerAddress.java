package dev.sluice.cli.proxy;

import dev.sluice.cli.HostPort;
import picocli.CommandLine;

/**
 * One entry of {@code proxy --servers}: a fixed {@code host:port}, or {@code dns:NAME:PORT}, a name the proxy
 * re-resolves periodically, each address it has being one server on {@code PORT} (a Kubernetes headless service, a
 * DNS round-robin pool). Parsing errors quote the entry, as picocli reports them with exit code 2.
 *
 * @param host the host of a fixed entry, or the name to resolve
 * @param port the servers' port
 * @param dns  whether {@code host} is re-resolved
 */
public record ServerAddress(String host, int port, boolean dns) {

    static final String DNS_PREFIX = "dns:";

    /** A fixed server. */
    public static ServerAddress of(HostPort server) {
        return new ServerAddress(server.host(), server.port(), false);
    }

    public static ServerAddress parse(String text) {
        if (!text.startsWith(DNS_PREFIX)) {
            return of(HostPort.parse(text));
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

    /** The fixed server; only for an entry that is not {@link #dns}. */
    HostPort hostPort() {
        return new HostPort(host, port);
    }

    /** As written on the command line: {@code host:port} or {@code dns:NAME:PORT}. */
    @Override
    public String toString() {
        return dns ? DNS_PREFIX + host + ":" + port : hostPort().toString();
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
