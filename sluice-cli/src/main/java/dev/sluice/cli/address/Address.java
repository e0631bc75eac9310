package dev.sluice.cli.address;

import io.netty.util.NetUtil;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import picocli.CommandLine;

/**
 * An address a {@code sluice} command listens on or connects to, in the one syntax every command takes:
 *
 * <pre>
 * host:port  tcp://host:port      plaintext TCP
 * tls://host:port                 TLS over TCP
 * ws://host:port[/path]           WebSocket, path /rsocket unless given
 * wss://host:port[/path]          WebSocket over TLS
 * unix:/path/to.sock              Unix domain socket (also unix:///path/to.sock, or a relative unix:app.sock)
 * </pre>
 *
 * An IPv6 address goes in brackets: {@code [::1]:7000}, {@code tls://[::1]:7001}. Port 0 lets a server pick a free
 * one. Each parse error is one line that quotes the value; picocli puts the option's name in front of it and exits
 * with 2.
 *
 * @param scheme the transport
 * @param host   the host, without brackets; null for {@link Scheme#UNIX}
 * @param port   0 to 65535; -1 for {@link Scheme#UNIX}
 * @param path   the WebSocket path (starting with {@code /}), the socket file's path for {@link Scheme#UNIX}, else
 *               null
 */
public record Address(Scheme scheme, String host, int port, String path) {

    /** The WebSocket path when none is given, the transports' own default. */
    public static final String DEFAULT_WEBSOCKET_PATH = "/rsocket";

    private static final String FORMS = "host:port, tcp://host:port, tls://host:port, ws://host:port[/path],"
        + " wss://host:port[/path] or unix:/path/to.sock";

    /** Plaintext TCP to {@code host:port}. */
    public static Address tcp(String host, int port) {
        return new Address(Scheme.TCP, host, port, null);
    }

    /**
     * Parses {@code text}.
     *
     * @throws IllegalArgumentException with a one-line message quoting {@code text}
     */
    public static Address parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("expected " + FORMS + ", got '" + (text == null ? "" : text) + "'");
        }
        if (text.regionMatches(true, 0, "unix:", 0, 5)) {
            return unix(text);
        }
        int separator = text.indexOf("://");
        if (separator < 0) {
            return hostPort(Scheme.TCP, text, text);
        }
        Scheme scheme = Scheme.ofUrlPrefix(text.substring(0, separator));
        if (scheme == null) {
            throw new IllegalArgumentException("unknown scheme '" + text.substring(0, separator) + "' in '" + text
                + "': expected " + FORMS);
        }
        String rest = text.substring(separator + 3);
        if (rest.indexOf('?') >= 0 || rest.indexOf('#') >= 0) {
            throw new IllegalArgumentException("a query or fragment is not part of an address, got '" + text + "'");
        }
        int slash = rest.indexOf('/');
        if (!scheme.websocket()) {
            if (slash >= 0) {
                throw new IllegalArgumentException(scheme.prefix() + ":// takes no path, got '" + text + "'");
            }
            return hostPort(scheme, rest, text);
        }
        String path = slash < 0 ? DEFAULT_WEBSOCKET_PATH : rest.substring(slash);
        Address a = hostPort(scheme, slash < 0 ? rest : rest.substring(0, slash), text);
        return new Address(scheme, a.host(), a.port(), path);
    }

    private static Address unix(String text) {
        String path = text.substring(5);
        if (path.startsWith("//")) {
            // unix:///run/app.sock, as other tools write it: the authority must be empty.
            path = path.substring(2);
            if (!path.startsWith("/")) {
                throw new IllegalArgumentException("expected unix:/path/to.sock or unix:///path/to.sock, got '"
                    + text + "'");
            }
        }
        if (path.isEmpty()) {
            throw new IllegalArgumentException("unix: needs the socket file's path, e.g. unix:/run/sluice.sock, got '"
                + text + "'");
        }
        if (path.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("a socket path cannot hold a NUL character, got '" + text + "'");
        }
        return new Address(Scheme.UNIX, null, -1, path);
    }

    /** {@code authority} as {@code host:port} or {@code [v6]:port}; {@code text} is the whole value, for messages. */
    private static Address hostPort(Scheme scheme, String authority, String text) {
        int colon = authority.lastIndexOf(':');
        if (colon <= 0 || colon == authority.length() - 1) {
            throw new IllegalArgumentException((scheme == Scheme.TCP && text.equals(authority)
                ? "expected " + FORMS : "expected " + scheme.prefix() + "://host:port"
                    + (scheme.websocket() ? "[/path]" : "")) + ", got '" + text + "'");
        }
        String host = authority.substring(0, colon);
        if (host.startsWith("[")) {
            if (!host.endsWith("]") || host.length() == 2) {
                throw new IllegalArgumentException("expected [IPv6 address]:port, got '" + text + "'");
            }
            host = host.substring(1, host.length() - 1);
            if (!NetUtil.isValidIpV6Address(host)) {
                throw new IllegalArgumentException("not an IPv6 address in brackets: '" + host + "' in '" + text
                    + "'");
            }
        } else if (host.indexOf(':') >= 0) {
            throw new IllegalArgumentException("an IPv6 address goes in brackets, e.g. [::1]:7000, got '" + text
                + "'");
        }
        int port;
        try {
            port = Integer.parseInt(authority.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the port must be a number, got '" + text + "'");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("the port must be between 0 and 65535, got " + port + " in '" + text
                + "'");
        }
        return new Address(scheme, host, port, null);
    }

    /** The same address on {@code port}: what a server bound to port 0 listens on. */
    public Address withPort(int port) {
        return new Address(scheme, host, port, path);
    }

    /** The socket file; only for {@link Scheme#UNIX}. */
    public Path socketFile() {
        return Path.of(path);
    }

    /** {@code host:port}, IPv6 in brackets; for {@link Scheme#UNIX}, {@code unix:PATH}. */
    public String hostPort() {
        if (scheme == Scheme.UNIX) {
            return "unix:" + path;
        }
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }

    /**
     * Whether traffic to this address stays on this machine: a Unix socket, {@code localhost} or a loopback IP
     * address (a name is not looked up).
     */
    public boolean local() {
        if (scheme == Scheme.UNIX || "localhost".equalsIgnoreCase(host)) {
            return true;
        }
        byte[] ip = NetUtil.createByteArrayFromIpAddressString(host);
        try {
            return ip != null && InetAddress.getByAddress(ip).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false; // not a valid length: never, given where the bytes come from
        }
    }

    /** As written in full: {@code tcp://127.0.0.1:7001}, {@code ws://[::1]:7000/rsocket}, {@code unix:/run/a.sock}. */
    @Override
    public String toString() {
        if (scheme == Scheme.UNIX) {
            return hostPort();
        }
        return scheme.prefix() + "://" + hostPort() + (scheme.websocket() ? path : "");
    }

    /** picocli converter. */
    public static final class Converter implements CommandLine.ITypeConverter<Address> {
        @Override
        public Address convert(String value) {
            try {
                return parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
