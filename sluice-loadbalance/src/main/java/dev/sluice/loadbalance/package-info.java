/**
 * Client-side load balancing by lease availability: {@link dev.sluice.loadbalance.LeastLoadedBalancer} is an
 * {@code RSocket} over a changing set of {@link dev.sluice.loadbalance.Target}s that sends each request to the
 * target with the most capacity left, reconnects lost targets with backoff and drains removed ones. With no target
 * connected a request fails at once with {@link dev.sluice.loadbalance.NoTargetAvailableException}.
 *
 * <p>The set is fixed at build time, replaced by {@code update(Collection)}, or followed from a
 * {@code Publisher<? extends Collection<Target>>} (discovery: a registry, a DNS name re-resolved periodically),
 * each list replacing the set. When that publisher fails or completes, the last set stays; disposing the balancer
 * cancels it.
 */
package dev.sluice.loadbalance;
