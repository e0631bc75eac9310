/**
 * Client-side load balancing by lease availability: {@link dev.sluice.loadbalance.LeastLoadedBalancer} is an
 * {@code RSocket} over a changing set of {@link dev.sluice.loadbalance.Target}s that sends each request to the
 * target with the most capacity left, reconnects lost targets with backoff and drains removed ones. With no target
 * connected a request fails at once with {@link dev.sluice.loadbalance.NoTargetAvailableException}.
 */
package dev.sluice.loadbalance;
