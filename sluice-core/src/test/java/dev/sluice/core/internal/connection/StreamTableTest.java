package dev.sluice.core.internal.connection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class StreamTableTest {

    @Test
    void aWindowOfSequentialIdsLivesInTheArrayAndTheArrayGrowsWithIt() {
        StreamTable<String> table = new StreamTable<>();
        // A client keeping 512 requests in flight: ids 1, 3, 5, ...; each answer, which frees its id, lets the
        // next request go.
        int window = 512;
        for (int n = 0; n < 10_000; n++) {
            int id = 1 + 2 * n;
            if (n >= window) {
                int answered = id - 2 * window;
                assertThat(table.remove(answered, table.get(answered))).isTrue();
            }
            table.put(id, "s" + id);
        }
        assertThat(table.size()).isEqualTo(window);
        // 512 odd ids span 1,024 numbers: 1,024 slots hold them without a clash, and nothing more is needed.
        assertThat(table.capacity()).isEqualTo(1024);
        for (int n = 10_000 - window; n < 10_000; n++) {
            assertThat(table.get(1 + 2 * n)).isEqualTo("s" + (1 + 2 * n));
        }
    }

    @Test
    void idsThatShareASlotAreBothKeptAndTheArrayStaysWithinEightSlotsPerEntry() {
        StreamTable<String> table = new StreamTable<>();
        // A peer whose ids all land on slot 2 at every size: the array must not grow for them.
        String[] streams = new String[20];
        for (int k = 0; k < 20; k++) {
            streams[k] = "p" + k;
            table.put(2 + (k << 20), streams[k]);
        }
        assertThat(table.size()).isEqualTo(20);
        assertThat(table.capacity()).isLessThanOrEqualTo(20 * StreamTable.MAX_SLOTS_PER_ENTRY);
        for (int k = 0; k < 20; k++) {
            assertThat(table.get(2 + (k << 20))).isSameAs(streams[k]);
        }
        assertThat(table.get(2 + (21 << 20))).isNull();
        assertThat(table.remove(2 + (5 << 20), streams[5])).isTrue();
        assertThat(table.get(2 + (5 << 20))).isNull();
        assertThat(table.size()).isEqualTo(19);
    }

    @Test
    void removeTakesOnlyTheStreamItIsGiven() {
        StreamTable<String> table = new StreamTable<>();
        table.put(7, "new");
        // A late cancel of the id's previous stream leaves the new one in place.
        assertThat(table.remove(7, "old")).isFalse();
        assertThat(table.get(7)).isEqualTo("new");
        assertThat(table.remove(9, "new")).isFalse();
        assertThat(table.remove(7, "new")).isTrue();
        assertThat(table.isEmpty()).isTrue();
        assertThat(table.remove(7, "new")).isFalse();
    }

    @Test
    void putReplacesWhereverTheIdIs() {
        StreamTable<String> table = new StreamTable<>();
        int a = 3;
        int b = 3 + StreamTable.INITIAL_CAPACITY; // same slot as a, so it waits in the map
        table.put(a, "a1");
        table.put(b, "b1");
        table.remove(a, "a1");
        // b's slot is free now, but b is still in the map: replacing it must not leave a second copy behind.
        table.put(b, "b2");
        assertThat(table.size()).isEqualTo(1);
        assertThat(table.get(b)).isEqualTo("b2");
        assertThat(table.remove(b, "b2")).isTrue();
        assertThat(table.isEmpty()).isTrue();
        assertThat(table.get(b)).isNull();
    }

    @Test
    void takeAllEmptiesArrayAndMap() {
        StreamTable<String> table = new StreamTable<>();
        for (int k = 0; k < 10; k++) {
            table.put(1 + 2 * k, "a" + k);
            table.put(4 + (k << 16), "m" + k);
        }
        assertThat(table.takeAll()).hasSize(20).contains("a0", "a9", "m0", "m9");
        assertThat(table.isEmpty()).isTrue();
        assertThat(table.get(1)).isNull();
        assertThat(table.get(4)).isNull();
        assertThat(table.takeAll()).isEmpty();
    }

    @Test
    void nullValuesAreRefused() {
        assertThatThrownBy(() -> new StreamTable<String>().put(1, null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void agreesWithAHashMapUnderRandomTraffic() {
        SplittableRandom random = new SplittableRandom(42);
        StreamTable<Integer> table = new StreamTable<>();
        Map<Integer, Integer> oracle = new HashMap<>();
        int next = 1;
        for (int step = 0; step < 200_000; step++) {
            int op = random.nextInt(10);
            if (op < 4) {
                // Mostly sequential ids, sometimes a peer's far-off one.
                int id = random.nextInt(8) == 0 ? random.nextInt(1, Integer.MAX_VALUE) : (next += 2);
                Integer stream = step; // boxed once: the table compares streams by identity
                table.put(id, stream);
                oracle.put(id, stream);
            } else if (op < 8 && !oracle.isEmpty()) {
                int id = random.nextInt(4) == 0 ? random.nextInt(1, next + 2)
                    : oracle.keySet().iterator().next();
                Integer expected = oracle.get(id);
                Integer given = random.nextInt(5) == 0 ? Integer.valueOf(-1) : expected;
                boolean removes = expected != null && given == expected;
                assertThat(table.remove(id, given)).as("remove %d at step %d", id, step).isEqualTo(removes);
                if (removes) {
                    oracle.remove(id);
                }
            } else {
                int id = random.nextInt(1, next + 2);
                assertThat(table.get(id)).as("get %d at step %d", id, step).isEqualTo(oracle.get(id));
            }
            assertThat(table.size()).isEqualTo(oracle.size());
        }
        assertThat(table.takeAll()).containsExactlyInAnyOrderElementsOf(oracle.values());
    }
}
