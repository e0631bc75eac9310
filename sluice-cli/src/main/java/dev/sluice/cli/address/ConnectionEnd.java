package dev.sluice.cli.address;

import dev.sluice.core.exceptions.RejectedSetupException;
import dev.sluice.frame.ErrorCodes;

/**
 * Why a client's connection ended, in the one line a client command exits with. The protocol does not acknowledge
 * SETUP, so a server that refuses a client (a wrong token, a plaintext client at a TLS port) does so on a connection
 * that already looked open: {@code tls://10.0.0.5:7001 refused the connection: REJECTED_SETUP authentication failed}.
 * Stateless.
 */
public final class ConnectionEnd {

    private ConnectionEnd() {
    }

    /**
     * The line for a connection to {@code target} that ended with {@code cause} ({@code Connection.closeCause()}, may
     * be null).
     */
    public static String describe(Address target, Throwable cause) {
        if (cause instanceof RejectedSetupException refused) {
            return target + " refused the connection: " + ErrorCodes.name(refused.errorCode()) + " "
                + refused.getMessage();
        }
        String why = cause == null ? null : cause.getMessage();
        return "the connection to " + target + " closed" + (why == null || why.isBlank() ? "" : ": " + why);
    }
}
