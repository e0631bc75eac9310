/**
 * Micrometer metrics for Sluice. {@link dev.sluice.micrometer.SluiceMetrics} is the entry point: per-connection
 * recorders for servers and connectors, a counting wrapper for request gates, and gauges for balancer targets.
 * Requests are counted exactly at a few nanoseconds each; latency is sampled.
 */
package dev.sluice.micrometer;
