/**
 * RSocket over TCP on Netty: {@link dev.sluice.transport.netty.TcpServerTransport} for
 * {@code RSocketServer.bind} and {@link dev.sluice.transport.netty.TcpClientTransport} for
 * {@code RSocketConnector.connect}. Frames travel behind the 3-byte length prefix that rsocket-java's TCP transport
 * uses; the native epoll transport is used when it loads, NIO otherwise. Either side may run TLS:
 * {@link dev.sluice.transport.netty.TlsServer} and {@link dev.sluice.transport.netty.TlsClient}, given to
 * {@code secure(...)}. The channel machinery lives in {@code dev.sluice.transport.netty.internal}, which is not API.
 */
package dev.sluice.transport.netty;
