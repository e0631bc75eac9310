package dev.sluice.rpc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.frame.metadata.CompositeMetadata;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Finding a request's method allocates nothing: reading the composite metadata (route, marker, other entries) and
 * looking the route's bytes up. Counted with the JVM's per-thread allocation counter over a bounded loop; no
 * timing is involved.
 */
class DispatchAllocationTest {

    private static final int WARM_UP = 20_000;
    private static final int MEASURED = 100_000;

    @Test
    void readingTheRouteAndLookingItUpAllocatesNothing() {
        List<byte[]> routes = new ArrayList<>();
        List<String> values = new ArrayList<>();
        for (String m : new String[] {"Say", "Repeat", "Collect", "Chat"}) {
            routes.add(("sluice.echo.v1.Echo/" + m).getBytes(StandardCharsets.UTF_8));
            values.add(m);
        }
        RouteTable<String> table = new RouteTable<>(routes, values);
        // A plain heap buffer, as a frame's bytes: not wrapped by the leak detector, whose access records allocate.
        ByteBuf scratch = Unpooled.buffer();
        CompositeMetadata.addRoutingEntry(scratch, List.of("sluice.echo.v1.Echo/Chat"));
        CompositeMetadata.addEntry(scratch, "application/x.trace", Unpooled.wrappedBuffer(new byte[] {1, 2, 3}));
        byte[] bytes = new byte[scratch.readableBytes()];
        scratch.readBytes(bytes);
        scratch.release();
        ByteBuf metadata = Unpooled.wrappedBuffer(bytes);

        com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long found = dispatch(table, metadata, WARM_UP);
        long before = threads.getCurrentThreadAllocatedBytes();
        found += dispatch(table, metadata, MEASURED);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertThat(found).isEqualTo(WARM_UP + MEASURED);
        // A few hundred bytes of slack for the counter's own bookkeeping; one object per call would be megabytes.
        assertThat(allocated).as("bytes allocated over %d dispatches", MEASURED).isLessThan(1024);
    }

    private static long dispatch(RouteTable<String> table, ByteBuf metadata, int times) {
        long found = 0;
        for (int i = 0; i < times; i++) {
            CallMetadataReader reader = CallMetadataReader.current();
            if (reader.read(metadata, metadata.readerIndex(), metadata.readableBytes())
                && table.get(metadata, reader.routeIndex(), reader.routeLength()) != null
                && reader.otherEntries()) {
                found++;
            }
        }
        return found;
    }
}
