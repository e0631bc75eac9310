package dev.sluice.cli.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.cli.address.Address;
import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Leases;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.rpc.RpcException;
import dev.sluice.rpc.RpcRouter;
import dev.sluice.rpc.RpcStatus;
import dev.sluice.rpc.echo.v1.EchoClient;
import dev.sluice.rpc.echo.v1.EchoReply;
import dev.sluice.rpc.echo.v1.EchoRequest;
import dev.sluice.rpc.echo.v1.EchoRpc;
import dev.sluice.rpc.echo.v1.RealEchoService;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

/**
 * RPC calls through the proxy: it forwards the route and protobuf bytes untouched to a leasing Echo server, so
 * every kind of call, status errors and lease rejections come back as if the client had called the server.
 */
class ProxyRpcTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private static EchoRequest request(String text) {
        return EchoRequest.newBuilder().setText(text).build();
    }

    @Test
    void everyKindOfCallPassesThroughTheProxy() throws InterruptedException {
        CloseableServer echoServer = RSocketServer.create(RpcRouter.of(EchoRpc.bind(new RealEchoService()))
                .acceptor())
            .lease(scheduler -> Leases.of(Leases.fixed(Duration.ofMinutes(10), 6, scheduler)))
            .bind(TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        ProxyCommand proxy = ProxyCommand.of(Address.tcp("127.0.0.1", 0),
            List.of(Address.tcp("127.0.0.1", echoServer.port())));
        CloseableServer proxyServer = proxy.start();
        Connection connection = RSocketConnector.create()
            .connect(TcpClientTransport.create("127.0.0.1", proxyServer.port())).block(TIMEOUT);
        try {
            for (int i = 0; i < 500 && proxy.balancer().availability() < 1.0; i++) {
                Thread.sleep(10);
            }
            EchoClient echo = EchoRpc.client(connection);
            assertThat(echo.say(request("via proxy")).block(TIMEOUT).getText()).isEqualTo("via proxy");
            assertThat(echo.repeat(EchoRequest.newBuilder().setCount(4).build()).map(EchoReply::getIndex)
                .collectList().block(TIMEOUT)).containsExactly(0, 1, 2, 3);
            assertThat(echo.collect(Flux.just(request("a"), request("b"))).block(TIMEOUT).getText())
                .isEqualTo("a,b");
            assertThat(echo.collect(Flux.empty()).block(TIMEOUT).getIndex()).isZero();
            assertThat(echo.chat(Flux.just(request("x"), request("y"))).map(EchoReply::getText)
                .collectList().block(TIMEOUT)).containsExactly("x", "y");
            assertThatThrownBy(() -> echo.say(request("fail:NOT_FOUND:nope")).block(TIMEOUT))
                .isInstanceOfSatisfying(RpcException.class, e -> {
                    assertThat(e.status()).isEqualTo(RpcStatus.NOT_FOUND);
                    assertThat(e.description()).isEqualTo("nope");
                });
            // Six leased requests are used up: the server's refusal comes back through the proxy.
            assertThatThrownBy(() -> echo.say(request("one too many")).block(TIMEOUT))
                .isInstanceOfSatisfying(RpcException.class, e -> {
                    assertThat(e.status()).isEqualTo(RpcStatus.UNAVAILABLE);
                    assertThat(e.description()).isEqualTo("lease_exhausted");
                });
        } finally {
            connection.dispose();
            proxyServer.dispose();
            echoServer.dispose();
        }
    }
}
