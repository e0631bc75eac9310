package dev.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.IllegalReferenceCountException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class PayloadTest {

    @BeforeAll
    static void theDebugCheckIsOnInTests() {
        // The parent pom's surefire.argLine sets -Dsluice.payload.debug=true; the release tests below rely on it.
        assertThat(RefCountedPayload.DEBUG).as("-Dsluice.payload.debug").isTrue();
    }

    @Test
    void anArrayIsCopiedSoChangingItAfterwardsLeavesThePayloadAlone() {
        byte[] data = "hello".getBytes(StandardCharsets.US_ASCII);
        byte[] metadata = "meta".getBytes(StandardCharsets.US_ASCII);
        Payload p = Payload.create(data, metadata);
        data[0] = 'j';
        metadata[0] = 'b';
        assertThat(p.dataUtf8()).isEqualTo("hello");
        assertThat(p.metadataUtf8()).isEqualTo("meta");
        p.release();

        Payload dataOnly = Payload.create(data);
        data[0] = 'h';
        assertThat(dataOnly.dataUtf8()).isEqualTo("jello");
        assertThat(dataOnly.hasMetadata()).isFalse();
        dataOnly.release();
    }

    @Test
    void anEmptyArrayOrAbsentMetadataIsStillAPayload() {
        Payload p = Payload.create(new byte[0], null);
        assertThat(p.data().readableBytes()).isZero();
        assertThat(p.hasMetadata()).isFalse();
        assertThat(p.release()).isTrue();
    }

    @Test
    void aWrappedBufferIsTheZeroCopyPathAndSharesTheArray() {
        byte[] data = "hello".getBytes(StandardCharsets.US_ASCII);
        Payload p = Payload.create(Unpooled.wrappedBuffer(data));
        data[0] = 'j';
        assertThat(p.dataUtf8()).isEqualTo("jello");
        p.release();
    }

    @Test
    void aReleasedPayloadUsedAgainFailsNamingWhereItWasReleased() {
        Payload p = Payload.create("hello");
        p.release();
        assertThatThrownBy(p::data)
            .isInstanceOf(IllegalReferenceCountException.class)
            .hasMessageStartingWith("payload used after its release (refCnt: 0)")
            .cause().hasMessageStartingWith("payload released here")
            .satisfies(c -> assertThat(c.getStackTrace()).extracting(StackTraceElement::getMethodName)
                .contains("aReleasedPayloadUsedAgainFailsNamingWhereItWasReleased"));
        assertThatThrownBy(p::metadata).isInstanceOf(IllegalReferenceCountException.class);
        assertThatThrownBy(p::hasMetadata).isInstanceOf(IllegalReferenceCountException.class);
        assertThatThrownBy(p::dataUtf8).isInstanceOf(IllegalReferenceCountException.class);
        assertThatThrownBy(p::touch).isInstanceOf(IllegalReferenceCountException.class);
        assertThatThrownBy(p::retain)
            .isInstanceOf(IllegalReferenceCountException.class)
            .hasMessageStartingWith("payload retained after its release (refCnt: 0)");
    }

    @Test
    void aPayloadReleasedTwiceFails() {
        Payload p = Payload.create("hello");
        assertThat(p.release()).isTrue();
        assertThatThrownBy(p::release)
            .isInstanceOf(IllegalReferenceCountException.class)
            .hasMessageStartingWith("payload released twice (refCnt: 0)");
    }

    @Test
    void aReceivedPayloadReleasedTwiceFailsAndLeavesTheFrameItsOtherReferences() {
        ByteBuf frame = Unpooled.copiedBuffer("metadata", StandardCharsets.US_ASCII);
        Payload p = Payload.ofRegions(frame, 0, 4, 4, 4);
        assertThat(p.dataUtf8()).isEqualTo("data");
        p.release();
        assertThatThrownBy(p::release).isInstanceOf(IllegalReferenceCountException.class);
        assertThatThrownBy(p::data).isInstanceOf(IllegalReferenceCountException.class);
        assertThat(frame.refCnt()).as("the caller's own reference").isEqualTo(1);
        frame.release();
    }

    @Test
    void aStaleReferenceCannotReachTheNextPayloadTheThreadMakes() {
        // Without the debug check the pool would hand this instance out again, and the stale reference would then
        // read, or release, the next message.
        Payload first = Payload.create("first");
        first.release();
        Payload second = Payload.create("second");
        assertThat(second).isNotSameAs(first);
        assertThatThrownBy(first::release).isInstanceOf(IllegalReferenceCountException.class);
        assertThat(second.refCnt()).isEqualTo(1);
        assertThat(second.dataUtf8()).isEqualTo("second");
        second.release();
    }

    @Test
    void aReceivedPayloadIsReadInPlaceWithoutAView() {
        ByteBuf frame = Unpooled.buffer().writeBytes("..mdDATA".getBytes(StandardCharsets.UTF_8));
        Payload p = Payload.ofRegions(frame, 2, 2, 4, 4);
        frame.release(); // the payload holds its own reference
        assertThat(p.dataBuffer()).isSameAs(frame);
        assertThat(p.dataIndex()).isEqualTo(4);
        assertThat(p.dataLength()).isEqualTo(4);
        assertThat(p.metadataBuffer()).isSameAs(frame);
        assertThat(p.metadataIndex()).isEqualTo(2);
        assertThat(p.metadataLength()).isEqualTo(2);
        assertThat(p.dataBuffer().toString(p.dataIndex(), p.dataLength(), StandardCharsets.UTF_8)).isEqualTo("DATA");
        // Once a view is made, the region accessors describe it (its reader index included).
        p.data().readByte();
        assertThat(p.dataBuffer()).isNotSameAs(frame);
        assertThat(p.dataBuffer().toString(p.dataIndex(), p.dataLength(), StandardCharsets.UTF_8)).isEqualTo("ATA");
        p.release();
        assertThatThrownBy(p::dataBuffer).isInstanceOf(IllegalReferenceCountException.class);
    }

    @Test
    void absentMetadataAndMadePayloadsHaveRegionsToo() {
        ByteBuf frame = Unpooled.buffer().writeBytes("DATA".getBytes(StandardCharsets.UTF_8));
        Payload received = Payload.ofRegions(frame, 0, -1, 0, 4);
        frame.release();
        assertThat(received.hasMetadata()).isFalse();
        assertThat(received.metadataLength()).isZero();
        received.release();

        Payload made = Payload.create("hello", "md");
        assertThat(made.dataBuffer().toString(made.dataIndex(), made.dataLength(), StandardCharsets.UTF_8))
            .isEqualTo("hello");
        assertThat(made.metadataBuffer().toString(made.metadataIndex(), made.metadataLength(),
            StandardCharsets.UTF_8)).isEqualTo("md");
        made.release();
    }

    @Test
    void aBorrowingPayloadReleasedBeforeItsLoanEndsNeverCountsAReferenceToTheFrame() {
        ByteBuf frame = Unpooled.copiedBuffer("..mdhello", StandardCharsets.US_ASCII);
        Payload p = Payload.borrowRegions(frame, 2, 2, 4, 5);
        assertThat(frame.refCnt()).isEqualTo(1);
        assertThat(p.refCnt()).isEqualTo(1);
        assertThat(p.dataUtf8()).isEqualTo("hello");
        assertThat(p.metadataUtf8()).isEqualTo("md");
        p.release();
        Payload.endBorrow(p);
        assertThat(frame.refCnt()).as("the transport's reference, untouched").isEqualTo(1);
        assertThat(p.refCnt()).isZero();
        frame.release();
    }

    @Test
    void aBorrowingPayloadStillHeldWhenItsLoanEndsTakesItsReferenceThenAndGivesItBackOnRelease() {
        ByteBuf frame = Unpooled.copiedBuffer("hello", StandardCharsets.US_ASCII);
        Payload p = Payload.borrowRegions(frame, -1, -1, 0, 5);
        p.retain();
        assertThat(p.refCnt()).as("the borrowing mark is not part of the count").isEqualTo(2);
        Payload.endBorrow(p);
        Payload.endBorrow(p);
        assertThat(frame.refCnt()).as("one reference, however often the loan is ended").isEqualTo(2);
        frame.release();
        assertThat(p.hasMetadata()).isFalse();
        assertThat(p.dataUtf8()).as("readable after the transport let go").isEqualTo("hello");
        p.release();
        assertThat(frame.refCnt()).isEqualTo(1);
        p.release();
        assertThat(frame.refCnt()).isZero();
        assertThatThrownBy(p::release).isInstanceOf(IllegalReferenceCountException.class);
    }

    @Test
    void endingALoanDoesNothingToAPayloadThatNeverBorrowed() {
        ByteBuf frame = Unpooled.copiedBuffer("hello", StandardCharsets.US_ASCII);
        Payload regions = Payload.ofRegions(frame, -1, -1, 0, 5);
        Payload made = Payload.create(Unpooled.copiedBuffer("x", StandardCharsets.US_ASCII));
        Payload.endBorrow(regions);
        Payload.endBorrow(made);
        Payload.endBorrow(Payload.copyOf(made));
        assertThat(frame.refCnt()).as("the caller's and the payload's").isEqualTo(2);
        regions.release();
        made.release();
        assertThat(frame.refCnt()).isEqualTo(1);
        frame.release();
    }
}
