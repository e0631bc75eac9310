package dev.sluice.frame;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrameTypeTest {

    @Test
    void namesAreTheSpecNamesAndUnknownCodesAreHex() {
        assertThat(FrameType.name(FrameType.REQUEST_FNF)).isEqualTo("REQUEST_FNF");
        assertThat(FrameType.name(FrameType.METADATA_PUSH)).isEqualTo("METADATA_PUSH");
        assertThat(FrameType.name(FrameType.EXT)).isEqualTo("EXT");
        assertThat(FrameType.name(FrameType.RESERVED)).isEqualTo("RESERVED");
        assertThat(FrameType.name(0x2A)).isEqualTo("UNKNOWN(0x2a)");
        assertThat(FrameType.name(-1)).isEqualTo("UNKNOWN(0xffffffff)");
        assertThat(FrameType.name(64)).isEqualTo("UNKNOWN(0x40)");
    }

    @Test
    void knownNamesAreConstantsNotNewStrings() {
        // Same instance on every call: naming a known type allocates nothing.
        assertThat(FrameType.name(FrameType.PAYLOAD)).isSameAs(FrameType.name(FrameType.PAYLOAD));
    }

    @Test
    void classifiesEveryCode() {
        List<Integer> known = new ArrayList<>();
        List<Integer> requests = new ArrayList<>();
        List<Integer> streamZero = new ArrayList<>();
        List<Integer> nonZero = new ArrayList<>();
        List<Integer> payloadSection = new ArrayList<>();
        for (int t = -1; t <= 64; t++) {
            if (FrameType.isKnown(t)) {
                known.add(t);
            }
            if (FrameType.isRequest(t)) {
                requests.add(t);
            }
            if (FrameType.mustUseStreamZero(t)) {
                streamZero.add(t);
            }
            if (FrameType.mustUseNonZeroStream(t)) {
                nonZero.add(t);
            }
            if (FrameType.hasPayloadSection(t)) {
                payloadSection.add(t);
            }
        }
        assertThat(known).containsExactly(0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C,
                0x0D, 0x0E, 0x3F);
        assertThat(requests).containsExactly(0x04, 0x05, 0x06, 0x07);
        assertThat(streamZero).containsExactly(0x01, 0x02, 0x03, 0x0C, 0x0D, 0x0E);
        assertThat(nonZero).containsExactly(0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A);
        assertThat(payloadSection).containsExactly(0x01, 0x04, 0x05, 0x06, 0x07, 0x0A, 0x3F);
    }
}
