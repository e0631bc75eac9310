package dev.sluice.transport.netty.internal;

import io.netty.channel.ConnectTimeoutException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.util.Locale;

/**
 * Why a connection attempt failed, in words a user can act on: {@code unknown host}, {@code connection refused},
 * {@code timed out after 5000 ms}, instead of the socket layer's {@code finishConnect(..) failed with error(-111)} or
 * an {@code UnresolvedAddressException} without a message. Stateless.
 */
public final class ConnectFailures {

    private ConnectFailures() {
    }

    /** The reason for {@code failure} (and its causes), one short lower-case phrase without class names. */
    public static String reason(Throwable failure, long timeoutMillis) {
        // Bounded by the depth, should the chain be a cycle.
        Throwable t = failure;
        for (int depth = 0; t != null && depth < 8; depth++, t = t.getCause()) {
            if (t instanceof UnresolvedAddressException || t instanceof UnknownHostException) {
                return "unknown host";
            }
            if (t instanceof ConnectTimeoutException) {
                return "timed out after " + timeoutMillis + " ms";
            }
            if (t instanceof NoRouteToHostException) {
                return "no route to host";
            }
            String m = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
            for (String known : new String[] {"connection refused", "no route to host", "network is unreachable",
                "connection reset", "connection timed out"}) {
                if (m.contains(known)) {
                    return known;
                }
            }
        }
        String m = failure == null ? null : failure.getMessage();
        // Netty's native transport prefixes the errno text with the failed call: keep only the text.
        return m == null ? "failed" : m.replaceFirst("^\\w+\\(\\.\\.\\) failed(?: with error\\(-?\\d+\\))?: ", "");
    }
}
