package dev.sluice.frame;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ErrorCodesTest {

    @Test
    void valuesAreTheSpecCodes() {
        assertThat(new int[] {ErrorCodes.INVALID_SETUP, ErrorCodes.UNSUPPORTED_SETUP, ErrorCodes.REJECTED_SETUP,
            ErrorCodes.REJECTED_RESUME, ErrorCodes.CONNECTION_ERROR, ErrorCodes.CONNECTION_CLOSE,
            ErrorCodes.APPLICATION_ERROR, ErrorCodes.REJECTED, ErrorCodes.CANCELED, ErrorCodes.INVALID,
            ErrorCodes.MIN_USER_CODE, ErrorCodes.MAX_USER_CODE})
                .containsExactly(0x001, 0x002, 0x003, 0x004, 0x101, 0x102, 0x201, 0x202, 0x203, 0x204, 0x301,
                        0xFFFFFFFE);
    }

    @Test
    void namesProtocolCodesUserCodesAndReservedOnes() {
        assertThat(ErrorCodes.name(ErrorCodes.REJECTED)).isEqualTo("REJECTED");
        assertThat(ErrorCodes.name(ErrorCodes.CONNECTION_CLOSE)).isEqualTo("CONNECTION_CLOSE");
        assertThat(ErrorCodes.name(0x301)).isEqualTo("USER(0x00000301)");
        assertThat(ErrorCodes.name(0xFFFFFFFE)).isEqualTo("USER(0xfffffffe)");
        assertThat(ErrorCodes.name(0)).isEqualTo("RESERVED(0x00000000)");
        assertThat(ErrorCodes.name(0xFFFFFFFF)).isEqualTo("RESERVED(0xffffffff)");
        assertThat(ErrorCodes.name(0x300)).isEqualTo("RESERVED(0x00000300)");
    }

    @Test
    void connectionLevelCodesAreTheStreamZeroOnes() {
        assertThat(ErrorCodes.isConnectionLevel(ErrorCodes.INVALID_SETUP)).isTrue();
        assertThat(ErrorCodes.isConnectionLevel(ErrorCodes.REJECTED_RESUME)).isTrue();
        assertThat(ErrorCodes.isConnectionLevel(ErrorCodes.CONNECTION_ERROR)).isTrue();
        assertThat(ErrorCodes.isConnectionLevel(ErrorCodes.CONNECTION_CLOSE)).isTrue();
        assertThat(ErrorCodes.isConnectionLevel(ErrorCodes.APPLICATION_ERROR)).isFalse();
        assertThat(ErrorCodes.isConnectionLevel(ErrorCodes.REJECTED)).isFalse();
        assertThat(ErrorCodes.isConnectionLevel(0x301)).isFalse();
        assertThat(ErrorCodes.isStreamLevel(ErrorCodes.INVALID)).isTrue();
        assertThat(ErrorCodes.isStreamLevel(ErrorCodes.CONNECTION_CLOSE)).isFalse();
    }

    @Test
    void userRangeIsComparedUnsigned() {
        assertThat(ErrorCodes.isUserCode(0x300)).isFalse();
        assertThat(ErrorCodes.isUserCode(0x301)).isTrue();
        assertThat(ErrorCodes.isUserCode(0x80000000)).isTrue();
        assertThat(ErrorCodes.isUserCode(0xFFFFFFFE)).isTrue();
        assertThat(ErrorCodes.isUserCode(0xFFFFFFFF)).isFalse();
    }
}
