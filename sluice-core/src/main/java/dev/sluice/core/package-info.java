/**
 * Sluice's RSocket API: {@link dev.sluice.core.RSocketServer} serves connections and
 * {@link dev.sluice.core.RSocketConnector} opens them; both speak through an {@link dev.sluice.core.RSocket}, the
 * five interactions (fire-and-forget, request-response, request-stream, request-channel, metadata-push) as
 * Reactor {@code Mono}s and {@code Flux}es carrying {@link dev.sluice.core.Payload}s.
 *
 * <table>
 *   <caption>What to reach for</caption>
 *   <tr><th>to</th><th>use</th></tr>
 *   <tr><td>answer requests</td><td>implement {@link dev.sluice.core.RSocket}, hand it to
 *       {@link dev.sluice.core.SocketAcceptor#with} and {@link dev.sluice.core.RSocketServer#create}</td></tr>
 *   <tr><td>send requests</td><td>{@link dev.sluice.core.RSocketConnector#connect}, which yields a
 *       {@link dev.sluice.core.Connection}</td></tr>
 *   <tr><td>lease capacity to requesters</td><td>{@link dev.sluice.core.ServerLeaseConfigurer},
 *       {@link dev.sluice.core.ClientLeaseConfigurer}, {@link dev.sluice.core.Leases},
 *       {@link dev.sluice.core.StatsRecorder}</td></tr>
 *   <tr><td>refuse requests before the handler</td><td>{@link dev.sluice.core.RequestGate}, for example
 *       {@link dev.sluice.core.RateLimitGate}</td></tr>
 *   <tr><td>bound what a peer may cost</td><td>{@link dev.sluice.core.Limits} and the settings it names</td></tr>
 * </table>
 *
 * <p><b>Ownership.</b> Payloads are reference-counted: a payload handed to Sluice is released by Sluice, one
 * Sluice hands over is the receiver's to release (see {@link dev.sluice.core.Payload}), unless the connection was
 * set to hand out heap copies ({@link dev.sluice.core.PayloadDecoder#COPY}). Errors from the peer arrive
 * as the exceptions of {@code dev.sluice.core.exceptions}; transports plug in through
 * {@code dev.sluice.core.transport}. The engine itself lives in {@code dev.sluice.core.internal}, which is not API.
 */
package dev.sluice.core;
