package dev.sluice.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** The status encoding of APPLICATION_ERROR messages, both ways. */
class RpcExceptionTest {

    @ParameterizedTest
    @EnumSource(value = RpcStatus.class, names = "OK", mode = EnumSource.Mode.EXCLUDE)
    void everyFailureStatusRoundTrips(RpcStatus status) {
        RpcException sent = new RpcException(status, "why: it failed");
        RpcException read = RpcException.fromWireMessage(sent.wireMessage());
        assertThat(read.status()).isEqualTo(status);
        assertThat(read.description()).isEqualTo("why: it failed");
        assertThat(RpcStatus.fromValue(status.value())).isEqualTo(status);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // wire message               | status            | description
        "NOT_FOUND: nope              | NOT_FOUND         | nope",
        "UNAVAILABLE                  | UNAVAILABLE       | ''",
        "DATA_LOSS: a: b              | DATA_LOSS         | a: b",
        // Not ours: another peer's plain message is UNKNOWN, kept whole.
        "boom: handler failed         | UNKNOWN           | boom: handler failed",
        "OK: fine                     | UNKNOWN           | OK: fine",
        "not_found: lower case        | UNKNOWN           | not_found: lower case",
        "''                           | UNKNOWN           | ''",
    })
    void readsWireMessages(String message, RpcStatus status, String description) {
        RpcException e = RpcException.fromWireMessage(message);
        assertThat(e.status()).isEqualTo(status);
        assertThat(e.description()).isEqualTo(description);
    }

    @Test
    void writesNameThenDescription() {
        assertThat(new RpcException(RpcStatus.NOT_FOUND, "nope").getMessage()).isEqualTo("NOT_FOUND: nope");
        assertThat(new RpcException(RpcStatus.ABORTED, null).getMessage()).isEqualTo("ABORTED");
    }

    @Test
    void okIsNotAFailure() {
        assertThatThrownBy(() -> new RpcException(RpcStatus.OK, "fine"))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void statusNumbersAreGrpcs() {
        assertThat(RpcStatus.UNIMPLEMENTED.value()).isEqualTo(12);
        assertThat(RpcStatus.UNAUTHENTICATED.value()).isEqualTo(16);
        assertThat(RpcStatus.fromValue(99)).isEqualTo(RpcStatus.UNKNOWN);
    }
}
