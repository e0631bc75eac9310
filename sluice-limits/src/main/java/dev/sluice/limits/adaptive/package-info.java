/**
 * Adaptive concurrency limits: algorithms that watch request latency and estimate how many requests may be in
 * flight at once before latency starts to climb. {@link dev.sluice.limits.adaptive.Limit} is the one interface;
 * {@link dev.sluice.limits.adaptive.AimdLimit}, {@link dev.sluice.limits.adaptive.VegasLimit},
 * {@link dev.sluice.limits.adaptive.Gradient2Limit} and {@link dev.sluice.limits.adaptive.FixedLimit} implement it.
 *
 * <p>A limit only computes a number; enforcing it (a lease sender, a limiter) is someone else's job. Time is a
 * parameter: each sample carries {@code nowNanos}, so tests replay scripted latency sequences without sleeping.
 * The limits are not thread-safe: keep each on one thread (a connection's event loop) or guard it.
 */
package dev.sluice.limits.adaptive;
