package dev.sluice.frame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Where the payload section starts, decided once for every payload-bearing type. */
class PayloadBearingLayoutTest {

    @ParameterizedTest(name = "type 0x{0}: field={1}, payload at {2}")
    @CsvSource(textBlock = """
        # type (hex), has field, payload start
        04,           false,     6
        05,           false,     6
        06,           true,      10
        07,           true,      10
        0A,           false,     6
        3F,           true,      10
        """)
    void payloadStartsAfterTheHeaderAndTheOptionalField(String typeHex, boolean hasField, int payloadStart) {
        int type = Integer.parseInt(typeHex, 16);
        assertThat(PayloadBearingLayout.hasField(type)).isEqualTo(hasField);
        assertThat(PayloadBearingLayout.payloadStart(type)).isEqualTo(payloadStart);
        // An empty payload section: the frame is exactly as long as its fixed part.
        assertThat(PayloadBearingLayout.encodedLength(type, -1, 0)).isEqualTo(payloadStart);
    }

    @Test
    void theFacadesTakeTheirOffsetsFromTheLayout() {
        assertThat(RequestResponseFrame.PAYLOAD_START).isEqualTo(6);
        assertThat(RequestFnfFrame.PAYLOAD_START).isEqualTo(6);
        assertThat(PayloadFrame.PAYLOAD_START).isEqualTo(6);
        assertThat(RequestStreamFrame.PAYLOAD_START).isEqualTo(10);
        assertThat(RequestChannelFrame.PAYLOAD_START).isEqualTo(10);
        assertThat(ExtFrame.PAYLOAD_START).isEqualTo(10);
        assertThat(RequestStreamFrame.INITIAL_REQUEST_N_OFFSET).isEqualTo(RequestChannelFrame.INITIAL_REQUEST_N_OFFSET)
                .isEqualTo(ExtFrame.EXTENDED_TYPE_OFFSET).isEqualTo(FrameHeader.SIZE);
    }

    @Test
    void typesWithoutAPayloadSectionOfThisShapeAreRefused() {
        assertThatThrownBy(() -> PayloadBearingLayout.payloadStart(FrameType.SETUP))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("not a payload-bearing frame type: SETUP");
        assertThatThrownBy(() -> PayloadBearingLayout.checkedField(1, FrameType.REQUEST_N, 0, 1))
                .hasMessage("not a payload-bearing frame type: REQUEST_N");
    }

    @Test
    void checkedFieldAppliesEachTypesRule() {
        assertThat(PayloadBearingLayout.checkedField(1, FrameType.REQUEST_RESPONSE, 0, 99)).isZero();
        assertThat(PayloadBearingLayout.checkedField(1, FrameType.REQUEST_STREAM, 0, Long.MAX_VALUE))
                .isEqualTo(Demand.UNBOUNDED_WIRE);
        assertThat(PayloadBearingLayout.checkedField(0, FrameType.EXT, 0, 7)).isEqualTo(7);
        assertThatThrownBy(() -> PayloadBearingLayout.checkedField(1, FrameType.REQUEST_CHANNEL, 0, 0))
                .hasMessage("initialRequestN < 1: 0");
        assertThatThrownBy(() -> PayloadBearingLayout.checkedField(3, FrameType.PAYLOAD, FrameFlags.FOLLOWS, 0))
                .hasMessage("PAYLOAD with neither NEXT nor COMPLETE on stream 3");
    }
}
