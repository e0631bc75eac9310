package dev.sluice.cli.files.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ChecksumTest {

    private static final String EMPTY_SHA = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    @Test
    void theTextFormIsLengthSpaceHexAndParsesBack() {
        Checksum c = new Checksum(0, EMPTY_SHA);

        assertThat(c).hasToString("0 " + EMPTY_SHA);
        assertThat(Checksum.parse(c.toString())).isEqualTo(c);
        assertThat(Checksum.parse(Long.MAX_VALUE + " " + EMPTY_SHA).bytes()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void ofFormatsTheDigestAsLowerCaseHex() {
        byte[] digest = new byte[32];
        digest[0] = (byte) 0xAB;
        digest[31] = 0x0F;

        assertThat(Checksum.of(7, digest).sha256()).isEqualTo("ab" + "00".repeat(30) + "0f");
        assertThatThrownBy(() -> Checksum.of(7, new byte[31])).hasMessage("digest length != 32: 31");
    }

    @Test
    void malformedTextIsRefusedQuotingIt() {
        String upper = EMPTY_SHA.toUpperCase();
        String notHex = "sha256 is not 64 lower-case hex digits: '";
        String[][] rows = {
            // text, message
            {"", "not '<bytes> <sha256>': ''"},
            {EMPTY_SHA, "not '<bytes> <sha256>': '" + EMPTY_SHA + "'"},
            {" " + EMPTY_SHA, "not '<bytes> <sha256>': ' " + EMPTY_SHA + "'"},
            {"x " + EMPTY_SHA, "not '<bytes> <sha256>', the length is not a number: 'x " + EMPTY_SHA + "'"},
            {"-1 " + EMPTY_SHA, "not '<bytes> <sha256>' (bytes < 0: -1): '-1 " + EMPTY_SHA + "'"},
            {"1 " + upper, "not '<bytes> <sha256>' (" + notHex + upper + "'): '1 " + upper + "'"},
            {"1 abc", "not '<bytes> <sha256>' (sha256 is not 64 lower-case hex digits: 'abc'): '1 abc'"},
            {"1  " + EMPTY_SHA, "not '<bytes> <sha256>' (" + notHex + " " + EMPTY_SHA + "'): '1  " + EMPTY_SHA + "'"},
            {"1".repeat(20) + " " + EMPTY_SHA, "not '<bytes> <sha256>': 85 characters"},
        };
        for (String[] row : rows) {
            assertThatThrownBy(() -> Checksum.parse(row[0])).as(row[0])
                .isInstanceOf(IllegalArgumentException.class).hasMessage(row[1]);
        }
    }
}
