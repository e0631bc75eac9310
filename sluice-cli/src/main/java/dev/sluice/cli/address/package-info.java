/**
 * Where a {@code sluice} command listens or connects, and how safely: the one address syntax of every command
 * ({@code host:port}, {@code tcp://}, {@code tls://}, {@code ws://}, {@code wss://}, {@code unix:}), and the TLS and
 * bearer-token options that go with it, as picocli mixins shared by the servers and by the clients.
 */
package dev.sluice.cli.address;
