package dev.sluice.limits.adaptive;

/**
 * What every limit's builder has: the initial limit and the bounds it stays within, each checked when set, and the
 * two checked together when the limit is built (the initial one clamped into the bounds).
 *
 * @param <B> the builder itself, so that its setters chain
 */
abstract class BoundedBuilder<B extends BoundedBuilder<B>> {

    int initial;
    int min;
    int max;

    BoundedBuilder(int initial, int min, int max) {
        this.initial = initial;
        this.min = min;
        this.max = max;
    }

    /** Where the limit starts, {@code >= 1}; clamped into {@code [minLimit, maxLimit]} when built. */
    public B initialLimit(int initial) {
        ListenedLimit.check(initial >= 1, "initialLimit < 1", initial);
        this.initial = initial;
        return self();
    }

    /** The least the limit falls to, {@code >= 1}. */
    public B minLimit(int min) {
        ListenedLimit.check(min >= 1, "minLimit < 1", min);
        this.min = min;
        return self();
    }

    /** The most the limit grows to, {@code >= 1}. */
    public B maxLimit(int max) {
        ListenedLimit.check(max >= 1, "maxLimit < 1", max);
        this.max = max;
        return self();
    }

    /** Checks {@code min <= max} and clamps the initial limit; call first in {@code build()}. */
    void checkBounds() {
        ListenedLimit.check(min <= max, "minLimit > maxLimit", min + " > " + max);
        initial = (int) ListenedLimit.clamp(initial, min, max);
    }

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }
}
