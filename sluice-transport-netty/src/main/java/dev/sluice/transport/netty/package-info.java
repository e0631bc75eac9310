/**
 * RSocket over TCP, Unix domain sockets and WebSocket on Netty. For {@code RSocketServer.bind}:
 * {@link dev.sluice.transport.netty.TcpServerTransport}, {@link dev.sluice.transport.netty.UnixServerTransport} and
 * {@link dev.sluice.transport.netty.WebsocketServerTransport}; for {@code RSocketConnector.connect}:
 * {@link dev.sluice.transport.netty.TcpClientTransport}, {@link dev.sluice.transport.netty.UnixClientTransport} and
 * {@link dev.sluice.transport.netty.WebsocketClientTransport}. Over TCP and Unix sockets, frames travel behind the
 * 3-byte length prefix that rsocket-java's TCP transport uses; over WebSocket, each frame is one binary message, as
 * rsocket-java's WebSocket transport sends them. TCP may run TLS: {@link dev.sluice.transport.netty.TlsServer} and
 * {@link dev.sluice.transport.netty.TlsClient}, given to {@code secure(...)}. The native epoll transport is used when
 * it loads, NIO otherwise. The channel machinery lives in {@code dev.sluice.transport.netty.internal}, which is not
 * API.
 */
package dev.sluice.transport.netty;
