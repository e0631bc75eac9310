package dev.sluice.cli;

import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.util.Locale;
import java.util.concurrent.TimeoutException;

/**
 * What went wrong, in one line a user can act on: {@code connection refused}, {@code unknown host}, or the
 * innermost message that says something, without class names ({@code UnresolvedAddressException}) or the socket
 * layer's call names ({@code finishConnect(..) failed with error(-111)}). Stateless.
 */
final class Problems {

    /** Phrases of the operating system's socket errors, as they appear in exception messages. */
    private static final String[] SOCKET_ERRORS = {"connection refused", "no route to host", "network is unreachable",
        "connection reset", "connection timed out", "address already in use"};

    private Problems() {
    }

    /** {@code e} in one line; see the class comment. */
    static String describe(Throwable e) {
        String fallback = null;
        Throwable t = e;
        // Bounded by the depth, should the chain be a cycle.
        for (int depth = 0; t != null && depth < 8; depth++, t = t.getCause()) {
            if (t instanceof UnresolvedAddressException || t instanceof UnknownHostException) {
                return "unknown host";
            }
            if (t instanceof NoRouteToHostException) {
                return "no route to host";
            }
            String m = t.getMessage();
            String lower = m == null ? "" : m.toLowerCase(Locale.ROOT);
            for (String known : SOCKET_ERRORS) {
                if (lower.contains(known)) {
                    return known;
                }
            }
            if (t instanceof TimeoutException && m != null) {
                return m;
            }
            if (m != null && !m.isBlank() && !isWrapper(t, m)) {
                fallback = stripCallName(m);
            }
        }
        return fallback != null ? fallback : "failed (" + plainName(e) + ")";
    }

    /** Whether {@code t} only repeats its cause ("pkg.SomeException: message"). */
    private static boolean isWrapper(Throwable t, String m) {
        return t.getCause() != null && m.equals(t.getCause().toString());
    }

    /** Netty's native transport prefixes the error text with the failed call: keep only the text. */
    private static String stripCallName(String m) {
        return m.replaceFirst("^\\w+\\(\\.\\.\\) failed(?: with error\\(-?\\d+\\))?: ", "");
    }

    /** "unresolved address" for UnresolvedAddressException: a last resort when nothing carries a message. */
    private static String plainName(Throwable e) {
        String name = e.getClass().getSimpleName().replaceAll("(Exception|Error)$", "");
        return name.replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
    }
}
