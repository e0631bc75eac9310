/**
 * Short programs that show Sluice's public API, one interaction or feature each. Every {@code main} starts its own
 * server on a free loopback port, runs a client against it, prints the result and returns; the module's tests run
 * each one, so they stay correct. Copy freely.
 */
package dev.sluice.examples;
