package dev.sluice.rpc.internal;

import dev.sluice.frame.metadata.RoutingMetadata;
import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * An open-addressing hash table from routes (UTF-8 bytes) to values, looked up directly from a region of a received
 * buffer: no string is decoded, nothing is allocated. Built once; immutable and thread-safe afterwards.
 *
 * @param <V> the value, e.g. the handler of a method
 */
public final class RouteTable<V> {

    /** Room for any route a routing tag can hold (255 bytes); a longer one gets its own array. */
    private static final FastThreadLocal<byte[]> SCRATCH = new FastThreadLocal<>() {
        @Override
        protected byte[] initialValue() {
            return new byte[RoutingMetadata.MAX_TAG_LENGTH];
        }
    };

    private final byte[][] keys;
    private final Object[] values;
    private final int mask;

    /**
     * A table of {@code routes.get(i) -> values.get(i)}.
     *
     * @throws IllegalArgumentException if the lists differ in size or a route repeats
     */
    public RouteTable(List<byte[]> routes, List<? extends V> values) {
        if (routes.size() != values.size()) {
            throw new IllegalArgumentException("routes " + routes.size() + " != values " + values.size());
        }
        int capacity = Integer.highestOneBit(Math.max(2, routes.size() * 2 + 1) - 1) << 1;
        this.keys = new byte[capacity][];
        this.values = new Object[capacity];
        this.mask = capacity - 1;
        for (int i = 0; i < routes.size(); i++) {
            byte[] route = routes.get(i);
            int slot = hash(route) & mask;
            while (keys[slot] != null) {
                if (Arrays.equals(keys[slot], route)) {
                    throw new IllegalArgumentException("route registered twice: "
                        + new String(route, StandardCharsets.UTF_8));
                }
                slot = (slot + 1) & mask;
            }
            keys[slot] = route;
            this.values[slot] = values.get(i);
        }
    }

    /**
     * The value of the route at {@code buf[index, index + length)}, or null. The route is copied once into this
     * thread's scratch array and hashed and compared there: byte-by-byte reads through the buffer (a slice of
     * the frame, bounds-checked at every level) were most of an RPC server's time per call.
     */
    @SuppressWarnings("unchecked")
    public V get(ByteBuf buf, int index, int length) {
        byte[] route = SCRATCH.get();
        if (length > route.length) {
            route = new byte[length];
        }
        buf.getBytes(index, route, 0, length);
        int h = 1;
        for (int i = 0; i < length; i++) {
            h = 31 * h + route[i];
        }
        for (int slot = spread(h) & mask; keys[slot] != null; slot = (slot + 1) & mask) {
            byte[] key = keys[slot];
            if (key.length == length && Arrays.equals(key, 0, length, route, 0, length)) {
                return (V) values[slot];
            }
        }
        return null;
    }

    private static int hash(byte[] route) {
        return spread(Arrays.hashCode(route));
    }

    /** Mixes the high bits into the low ones, which pick the slot. */
    private static int spread(int h) {
        return h ^ (h >>> 16);
    }
}
