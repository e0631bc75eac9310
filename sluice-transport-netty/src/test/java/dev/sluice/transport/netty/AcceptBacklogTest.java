package dev.sluice.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.transport.ServerHandle;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The accept backlog: the kernel's somaxconn by default, settable, with a warning when the kernel would clamp it. */
class AcceptBacklogTest {

    @Test
    void defaultsToTheKernelsSomaxconnWithoutWarning() {
        TcpServerTransport t = TcpServerTransport.create("127.0.0.1", 0);
        assertThat(t.backlog()).isEqualTo(TcpServerTransport.kernelSomaxconn());
        assertThat(startCapturingStderr(t)).doesNotContain("somaxconn");
    }

    @Test
    void warnsWhenTheRequestedBacklogExceedsSomaxconn() {
        int asked = TcpServerTransport.kernelSomaxconn() + 1;
        String err = startCapturingStderr(TcpServerTransport.create("127.0.0.1", 0).backlog(asked));
        assertThat(err).contains("accept backlog " + asked + " exceeds the kernel's net.core.somaxconn="
            + TcpServerTransport.kernelSomaxconn());
    }

    @Test
    void rejectsANonPositiveBacklog() {
        assertThatThrownBy(() -> TcpServerTransport.create("127.0.0.1", 0).backlog(0))
            .hasMessage("backlog must be > 0, got 0");
    }

    private static String startCapturingStderr(TcpServerTransport t) {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            ServerHandle h = t.start(dc -> dc.close()).block(Duration.ofSeconds(10));
            h.dispose();
        } finally {
            System.setErr(original);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }
}
