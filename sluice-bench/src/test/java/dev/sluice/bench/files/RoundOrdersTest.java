package dev.sluice.bench.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RoundOrdersTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7})
    void everyRoundRunsEveryTargetOnce(int n) {
        RoundOrders orders = new RoundOrders(n);
        assertThat(orders.cycle()).isEqualTo(2 * n);
        for (int round = 0; round < orders.cycle(); round++) {
            int[] order = orders.order(round);
            assertThat(Arrays.stream(order).sorted().toArray()).isEqualTo(IntStream.range(0, n).toArray());
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7})
    void aCycleRunsEveryTargetTwiceInEachPlace(int n) {
        RoundOrders orders = new RoundOrders(n);
        int[][] times = new int[n][n];
        for (int round = 0; round < orders.cycle(); round++) {
            int[] order = orders.order(round);
            for (int place = 0; place < n; place++) {
                times[order[place]][place]++;
            }
        }
        for (int[] places : times) {
            assertThat(places).containsOnly(2);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 5, 6, 7})
    void aCycleHasEveryTargetFollowEveryOtherDirectlyTwice(int n) {
        RoundOrders orders = new RoundOrders(n);
        int[][] follows = new int[n][n];
        for (int round = 0; round < orders.cycle(); round++) {
            int[] order = orders.order(round);
            for (int place = 1; place < n; place++) {
                follows[order[place - 1]][order[place]]++;
            }
        }
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) {
                assertThat(follows[a][b]).as("%d right after %d", b, a).isEqualTo(a == b ? 0 : 2);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 5, 6, 7})
    void everyTwoRoundsEachTargetRunsBeforeEachOtherOnce(int n) {
        RoundOrders orders = new RoundOrders(n);
        for (int start = 0; start < orders.cycle(); start += 2) {
            int[][] before = new int[n][n];
            for (int round = start; round < start + 2; round++) {
                int[] order = orders.order(round);
                for (int i = 0; i < n; i++) {
                    for (int j = i + 1; j < n; j++) {
                        before[order[i]][order[j]]++;
                    }
                }
            }
            for (int a = 0; a < n; a++) {
                for (int b = 0; b < n; b++) {
                    assertThat(before[a][b]).as("%d before %d from round %d", a, b, start)
                            .isEqualTo(a == b ? 0 : 1);
                }
            }
        }
    }

    @Test
    void roundsWrapAroundTheCycle() {
        RoundOrders orders = new RoundOrders(5);
        assertThat(orders.order(10)).isEqualTo(orders.order(0));
        assertThat(orders.order(-1)).isEqualTo(orders.order(9));
    }

    @Test
    void refusesNoTargets() {
        assertThatThrownBy(() -> new RoundOrders(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("targets < 1: 0");
    }
}
