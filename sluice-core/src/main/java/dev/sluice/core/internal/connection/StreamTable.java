package dev.sluice.core.internal.connection;

import io.netty.util.collection.IntObjectHashMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A connection's open streams by id. Each side numbers its streams upwards by two, so the streams open at once are
 * a window of recent ids: an array indexed by the id's low bits finds each in one load, where Netty's
 * {@code IntObjectHashMap} probed, shifted entries back on removal and counted for a twentieth of a
 * request-response client's time. An id whose slot holds another id (the window outgrew the array, or a peer's ids
 * jump) doubles the array while it stays at least an eighth full, and otherwise waits in a small hash map behind
 * it: a peer that spreads its ids cannot make the array grow past eight slots per open stream.
 *
 * <p>An id is in the array or in the map, never both. Event loop only.
 *
 * @param <T> what is kept per stream
 */
final class StreamTable<T> {

    static final int INITIAL_CAPACITY = 64;
    /** The array doubles on a clash only while it keeps at most this many slots per entry. */
    static final int MAX_SLOTS_PER_ENTRY = 8;

    private int[] ids = new int[INITIAL_CAPACITY];
    private Object[] values = new Object[INITIAL_CAPACITY];
    private int mask = INITIAL_CAPACITY - 1;
    /** Entries in the array. */
    private int inArray;
    /** Entries whose slot was taken when they came. */
    private final IntObjectHashMap<T> spilled = new IntObjectHashMap<>(4);

    /** The value of {@code id}, or null. */
    @SuppressWarnings("unchecked")
    T get(int id) {
        int i = id & mask;
        Object v = values[i];
        if (v != null && ids[i] == id) {
            return (T) v;
        }
        return spilled.isEmpty() ? null : spilled.get(id);
    }

    boolean containsKey(int id) {
        return get(id) != null;
    }

    /** Puts {@code value} (not null) under {@code id}, replacing what was there. */
    void put(int id, T value) {
        Objects.requireNonNull(value, "value");
        for (;;) {
            int i = id & mask;
            Object v = values[i];
            if (v != null && ids[i] == id) {
                values[i] = value;
                return;
            }
            if (!spilled.isEmpty() && spilled.containsKey(id)) {
                spilled.put(id, value);
                return;
            }
            if (v == null) {
                ids[i] = id;
                values[i] = value;
                inArray++;
                return;
            }
            if (values.length * 2 > (size() + 1) * MAX_SLOTS_PER_ENTRY) {
                spilled.put(id, value);
                return;
            }
            grow();
        }
    }

    /** Removes {@code id} if {@code value} is what it holds; whether it did. */
    boolean remove(int id, T value) {
        int i = id & mask;
        Object v = values[i];
        if (v != null && ids[i] == id) {
            if (v != value) {
                return false;
            }
            values[i] = null;
            inArray--;
            return true;
        }
        if (spilled.isEmpty() || spilled.get(id) != value || value == null) {
            return false;
        }
        spilled.remove(id);
        return true;
    }

    int size() {
        return inArray + spilled.size();
    }

    boolean isEmpty() {
        return inArray == 0 && spilled.isEmpty();
    }

    /** Empties the table; returns what it held. */
    List<T> takeAll() {
        List<T> all = new ArrayList<>(size());
        for (int i = 0; i < values.length && all.size() < inArray; i++) {
            @SuppressWarnings("unchecked")
            T v = (T) values[i];
            if (v != null) {
                all.add(v);
                values[i] = null;
            }
        }
        all.addAll(spilled.values());
        inArray = 0;
        spilled.clear();
        return all;
    }

    /** Slots in the array; for tests. */
    int capacity() {
        return values.length;
    }

    /** Doubles the array; entries that waited in the map move in where their new slot is free. */
    private void grow() {
        int[] oldIds = ids;
        Object[] oldValues = values;
        ids = new int[oldIds.length * 2];
        values = new Object[oldValues.length * 2];
        mask = values.length - 1;
        for (int i = 0; i < oldValues.length; i++) {
            if (oldValues[i] != null) {
                // Two ids that share a slot now shared one before, where only one could be: no clash here.
                int j = oldIds[i] & mask;
                ids[j] = oldIds[i];
                values[j] = oldValues[i];
            }
        }
        if (!spilled.isEmpty()) {
            for (int id : spilled.keySet().stream().mapToInt(Integer::intValue).toArray()) {
                int j = id & mask;
                if (values[j] == null) {
                    ids[j] = id;
                    values[j] = spilled.remove(id);
                    inArray++;
                }
            }
        }
    }
}
