package dev.sluice.rpc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.frame.metadata.CompositeMetadata;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The reader's memory of the last routing-only metadata: only exactly the same bytes, for the same table, hit. */
class CallMetadataReaderTest {

    private final Object table = new Object();
    private final CallMetadataReader reader = CallMetadataReader.current();

    @Test
    void theSameBytesElsewhereGiveTheRememberedValueAndTheRouteWhereTheyAre() {
        ByteBuf first = routeOnly("sluice.echo.v1.Echo/Say");
        assertThat(reader.read(first, 0, first.readableBytes())).isTrue();
        int routeOffset = reader.routeIndex();
        reader.remember(table, first, 0, first.readableBytes(), "say");

        ByteBuf second = Unpooled.buffer().writeZero(5).writeBytes(routeOnly("sluice.echo.v1.Echo/Say"));
        assertThat(reader.cached(table, second, 5, second.readableBytes() - 5)).isEqualTo("say");
        assertThat(reader.routeIndex()).isEqualTo(5 + routeOffset);
        assertThat(second.toString(reader.routeIndex(), reader.routeLength(), StandardCharsets.UTF_8))
            .isEqualTo("sluice.echo.v1.Echo/Say");
        assertThat(reader.otherEntries()).isFalse();
        assertThat(reader.emptyStream()).isFalse();
    }

    @Test
    void aDifferentRouteOfTheSameLengthOrAnotherTableMisses() {
        ByteBuf say = routeOnly("sluice.echo.v1.Echo/Say");
        reader.read(say, 0, say.readableBytes());
        reader.remember(table, say, 0, say.readableBytes(), "say");
        for (String other : List.of("sluice.echo.v1.Echo/Sax", "sluice.echo.v1.Echo/Pay", "sluice.echo.v1.Ech0/Say",
            "Sluice.echo.v1.Echo/Say")) {
            ByteBuf b = routeOnly(other);
            assertThat(reader.cached(table, b, 0, b.readableBytes())).as(other).isNull();
        }
        assertThat(reader.cached(new Object(), say, 0, say.readableBytes())).isNull();
    }

    @Test
    void metadataWithMoreThanTheRouteIsNeverRemembered() {
        ByteBuf withTrace = routeOnly("sluice.echo.v1.Echo/Say");
        CompositeMetadata.addEntry(withTrace, "application/x.trace", Unpooled.wrappedBuffer(new byte[] {1, 2, 3}));
        reader.read(withTrace, 0, withTrace.readableBytes());
        assertThat(reader.otherEntries()).isTrue();
        reader.remember(table, withTrace, 0, withTrace.readableBytes(), "say");
        assertThat(reader.cached(table, withTrace, 0, withTrace.readableBytes())).isNull();
        // The reader's results are still those of the read.
        assertThat(reader.otherEntries()).isTrue();
    }

    private static ByteBuf routeOnly(String route) {
        ByteBuf b = Unpooled.buffer();
        CompositeMetadata.addRoutingEntry(b, List.of(route));
        return b;
    }
}
