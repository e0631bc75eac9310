/**
 * The contract between the RSocket engine and a transport: {@link dev.sluice.core.transport.ClientTransport} and
 * {@link dev.sluice.core.transport.ServerTransport} open connections, each a
 * {@link dev.sluice.core.transport.DuplexConnection} that carries whole frames and reads into a
 * {@link dev.sluice.core.transport.FrameHandler}. Applications only pick a transport (such as
 * {@code dev.sluice.transport.netty}); implementing one is for new kinds of connection. Every connection is confined
 * to one event loop, as {@link dev.sluice.core.transport.DuplexConnection} describes.
 */
package dev.sluice.core.transport;
