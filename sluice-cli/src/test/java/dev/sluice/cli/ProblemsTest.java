package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** Failures as the user reads them: one line, no class names, no errno. */
class ProblemsTest {

    @Test
    void eachFailureReadsAsOneHumanLine() {
        Object[][] rows = {
            // what the client library threw -> what the user reads
            {wrap(new UnresolvedAddressException()), "unknown host"},
            {new UnknownHostException("nohost.invalid: Name or service not known"), "unknown host"},
            {wrap(new IOException("finishConnect(..) failed with error(-111): Connection refused: /127.0.0.1:1")),
                "connection refused"},
            {new ConnectException("Connection refused"), "connection refused"},
            {new IllegalStateException("Unable to connect to 127.0.0.1:1",
                new IOException("connect(..) failed: No route to host")), "no route to host"},
            {new TimeoutException("redis did not answer within 50 ms"), "redis did not answer within 50 ms"},
            {new IllegalStateException("WRONGPASS invalid username-password pair"),
                "WRONGPASS invalid username-password pair"},
            {new IOException("finishConnect(..) failed: Host is down"), "Host is down"},
            {new UnsupportedOperationException(), "failed (unsupported operation)"},
        };
        for (Object[] row : rows) {
            assertThat(Problems.describe((Throwable) row[0])).as("%s", row[0]).isEqualTo(row[1]);
        }
    }

    private static Throwable wrap(Throwable cause) {
        return new IllegalStateException("Unable to connect to 127.0.0.1/<unresolved>:1", cause);
    }
}
