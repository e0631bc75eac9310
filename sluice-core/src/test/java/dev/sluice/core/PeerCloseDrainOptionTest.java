package dev.sluice.core;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class PeerCloseDrainOptionTest {

    @Test
    void aDrainThatIsNotPositiveIsRefusedQuotingIt() {
        assertThatThrownBy(() -> RSocketServer.create(SocketAcceptor.with(new RSocket() { }))
            .peerCloseDrain(Duration.ZERO))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("peerCloseDrain must be > 0, got PT0S");
        assertThatThrownBy(() -> RSocketConnector.create().peerCloseDrain(Duration.ofSeconds(-1)))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("peerCloseDrain must be > 0, got PT-1S");
    }
}
