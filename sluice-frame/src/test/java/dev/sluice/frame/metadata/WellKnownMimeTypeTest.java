package dev.sluice.frame.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WellKnownMimeTypeTest {

    @Test
    void idsCoverTheRegistry() {
        List<Integer> ids = new ArrayList<>();
        for (WellKnownMimeType t : WellKnownMimeType.values()) {
            ids.add(t.id());
        }
        List<Integer> expected = new ArrayList<>();
        for (int id = 0x00; id <= 0x2A; id++) {
            expected.add(id);
        }
        for (int id = 0x7A; id <= 0x7F; id++) {
            expected.add(id);
        }
        assertThat(ids).containsExactlyElementsOf(expected);
    }

    @Test
    void looksUpByIdAndByString() {
        assertThat(WellKnownMimeType.fromId(0x05)).isEqualTo(WellKnownMimeType.APPLICATION_JSON);
        assertThat(WellKnownMimeType.fromId(0x7E).string()).isEqualTo("message/x.rsocket.routing.v0");
        assertThat(WellKnownMimeType.fromId(0x2B)).isNull();
        assertThat(WellKnownMimeType.fromId(0x79)).isNull();
        assertThat(WellKnownMimeType.fromId(-1)).isNull();
        assertThat(WellKnownMimeType.fromId(128)).isNull();
        assertThat(WellKnownMimeType.fromString("application/vnd.google.protobuf"))
                .isEqualTo(WellKnownMimeType.APPLICATION_PROTOBUF);
        assertThat(WellKnownMimeType.fromString("message/x.rsocket.composite-metadata.v0").id()).isEqualTo(0x7F);
        assertThat(WellKnownMimeType.fromString("Application/JSON")).as("exact match, as peers do").isNull();
        assertThat(WellKnownMimeType.fromString(null)).isNull();
    }

    @Test
    void capnpAndFlatbuffersAreUnknownToRsocketJava() {
        List<WellKnownMimeType> unknown = new ArrayList<>();
        for (WellKnownMimeType t : WellKnownMimeType.values()) {
            if (!t.knownToRsocketJava()) {
                unknown.add(t);
            }
        }
        assertThat(unknown).containsExactly(WellKnownMimeType.APPLICATION_X_CAPNP,
                WellKnownMimeType.APPLICATION_X_FLATBUFFERS);
        assertThat(WellKnownMimeType.APPLICATION_X_CAPNP.id()).isEqualTo(0x29);
        assertThat(WellKnownMimeType.APPLICATION_X_FLATBUFFERS.id()).isEqualTo(0x2A);
    }

    @Test
    void everyStringIsDistinct() {
        assertThat(WellKnownMimeType.values()).extracting(WellKnownMimeType::string).doesNotHaveDuplicates();
        for (WellKnownMimeType t : WellKnownMimeType.values()) {
            assertThat(WellKnownMimeType.fromString(t.string())).isSameAs(t);
            assertThat(WellKnownMimeType.fromId(t.id())).isSameAs(t);
        }
    }
}
