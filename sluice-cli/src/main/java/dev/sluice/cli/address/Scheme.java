package dev.sluice.cli.address;

import java.util.Locale;

/** The transport an {@link Address} names, by the prefix it is written with. */
public enum Scheme {

    /** Plaintext TCP: {@code tcp://host:port}, or a bare {@code host:port}. */
    TCP("tcp", false, false),
    /** TLS over TCP: {@code tls://host:port}. */
    TLS("tls", true, false),
    /** WebSocket: {@code ws://host:port/path}. */
    WS("ws", false, true),
    /** WebSocket over TLS: {@code wss://host:port/path}. */
    WSS("wss", true, true),
    /** A Unix domain socket: {@code unix:/path/to.sock}. */
    UNIX("unix", false, false);

    private final String prefix;
    private final boolean secure;
    private final boolean websocket;

    Scheme(String prefix, boolean secure, boolean websocket) {
        this.prefix = prefix;
        this.secure = secure;
        this.websocket = websocket;
    }

    /** As written before {@code ://} (or {@code :} for {@code unix}). */
    public String prefix() {
        return prefix;
    }

    /** Whether it runs over TLS. */
    public boolean secure() {
        return secure;
    }

    /** Whether it is a WebSocket, with a path. */
    public boolean websocket() {
        return websocket;
    }

    /** The scheme written {@code name} (any case) before {@code ://}, or null ({@code unix} takes no {@code //}). */
    static Scheme ofUrlPrefix(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        for (Scheme s : values()) {
            if (s != UNIX && s.prefix.equals(lower)) {
                return s;
            }
        }
        return null;
    }
}
