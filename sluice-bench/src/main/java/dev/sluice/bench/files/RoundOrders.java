package dev.sluice.bench.files;

/**
 * The order in which the targets run in each round of a row: balanced, so that no target is favoured by where it
 * runs. Where a target runs in a round matters on the small-file rows: all targets of a round create their files
 * in one directory, and the first to create there is slower (in one run at 1 KiB x 1000, p = 10, Sluice against
 * rio: a per-round ratio of 0.95 when Sluice ran first, 1.21 when it ran second). A plain rotation put Sluice before
 * rio in four rounds out of five, and the plain loop before Sluice as often.
 *
 * <p>The orders are a Williams square and its mirror images: over {@link #cycle()} rounds each target runs twice in
 * each position of a round, follows each other target directly equally often, and runs before each other
 * target in exactly half the rounds. The mirror of each order comes right after it, so any even number of rounds
 * is balanced in that last sense, which is what a per-round ratio of two targets depends on.
 */
final class RoundOrders {

    private final int[][] orders;

    /** Orders for {@code targets} targets, numbered from 0. */
    RoundOrders(int targets) {
        if (targets < 1) {
            throw new IllegalArgumentException("targets < 1: " + targets);
        }
        // The first row of a Williams square: 0, 1, n-1, 2, n-2, ...; row i adds i to each (mod n).
        int[] first = new int[targets];
        int low = 1;
        int high = targets - 1;
        for (int j = 1; j < targets; j++) {
            first[j] = j % 2 == 1 ? low++ : high--;
        }
        orders = new int[2 * targets][targets];
        for (int i = 0; i < targets; i++) {
            for (int j = 0; j < targets; j++) {
                int target = (first[j] + i) % targets;
                orders[2 * i][j] = target;
                orders[2 * i + 1][targets - 1 - j] = target;
            }
        }
    }

    /** Rounds after which every order has run once. */
    int cycle() {
        return orders.length;
    }

    /** The targets of round {@code round} (counted from 0; any round number wraps), in the order they run. */
    int[] order(int round) {
        return orders[Math.floorMod(round, orders.length)].clone();
    }
}
