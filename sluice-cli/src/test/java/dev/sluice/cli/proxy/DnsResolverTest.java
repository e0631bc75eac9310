package dev.sluice.cli.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.dns.DatagramDnsQuery;
import io.netty.handler.codec.dns.DatagramDnsQueryDecoder;
import io.netty.handler.codec.dns.DatagramDnsResponse;
import io.netty.handler.codec.dns.DatagramDnsResponseEncoder;
import io.netty.handler.codec.dns.DefaultDnsQuestion;
import io.netty.handler.codec.dns.DefaultDnsRawRecord;
import io.netty.handler.codec.dns.DnsQuestion;
import io.netty.handler.codec.dns.DnsRecordType;
import io.netty.handler.codec.dns.DnsResponseCode;
import io.netty.handler.codec.dns.DnsSection;
import io.netty.resolver.dns.DnsNameResolverTimeoutException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The real resolver against a DNS server of the test's own on 127.0.0.1, which answers A queries from a map with
 * a TTL of an hour: a changed answer must be seen at the next lookup all the same.
 */
class DnsResolverTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private final Map<String, List<String>> answers = new ConcurrentHashMap<>();
    private final EventLoopGroup serverLoop = new NioEventLoopGroup(1);
    private DnsResolver resolver;

    @AfterEach
    void stop() throws InterruptedException {
        if (resolver != null) {
            resolver.dispose();
        }
        serverLoop.shutdownGracefully(0, 0, TimeUnit.SECONDS).await(TIMEOUT.toMillis());
    }

    @Test
    void seesAChangedAnswerAtOnceWhateverItsTtl() throws Exception {
        resolver = DnsResolver.using(startServer());
        answers.put("pool.test", List.of("10.0.0.1", "10.0.0.2"));
        assertThat(lookup("pool.test")).containsExactlyInAnyOrder("10.0.0.1", "10.0.0.2");
        answers.put("pool.test", List.of("10.0.0.3"));
        assertThat(lookup("pool.test")).containsExactly("10.0.0.3");
    }

    @Test
    void anUnknownNameFailsWithAShortReason() throws Exception {
        resolver = DnsResolver.using(startServer());
        assertThatThrownBy(() -> lookup("nowhere.test")).isInstanceOf(UnknownHostException.class)
            .hasMessage("unknown host");
    }

    @Test
    void aTimeoutSaysHowLongItWaited() {
        UnknownHostException failed = new UnknownHostException("Failed to resolve 'slow.test' [A(1)]");
        failed.initCause(new DnsNameResolverTimeoutException(new InetSocketAddress("127.0.0.1", 53),
            new DefaultDnsQuestion("slow.test.", DnsRecordType.A), "query timed out after 5000 milliseconds"));
        assertThat(DnsResolver.failure(failed)).hasMessage("no answer within 5000 ms").hasCause(failed);
    }

    private List<String> lookup(String name) throws UnknownHostException {
        try {
            return resolver.resolveAll(name).block(TIMEOUT).stream().map(InetAddress::getHostAddress).toList();
        } catch (RuntimeException e) {
            if (e.getCause() instanceof UnknownHostException u) {
                throw u; // block() wraps checked exceptions
            }
            throw e;
        }
    }

    /** A DNS server on 127.0.0.1 that answers A queries from {@link #answers}, AAAA with none, others NXDOMAIN. */
    private InetSocketAddress startServer() throws InterruptedException {
        Channel channel = new Bootstrap().group(serverLoop).channel(NioDatagramChannel.class)
            .handler(new ChannelInitializer<DatagramChannel>() {
                @Override
                protected void initChannel(DatagramChannel ch) {
                    ch.pipeline().addLast(new DatagramDnsQueryDecoder(), new DatagramDnsResponseEncoder(),
                        new Answerer());
                }
            })
            .bind("127.0.0.1", 0).sync().channel();
        return (InetSocketAddress) channel.localAddress();
    }

    /** Answers one query; the query is released by the base class, the response by the encoder. */
    private final class Answerer extends SimpleChannelInboundHandler<DatagramDnsQuery> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramDnsQuery query) throws Exception {
            DnsQuestion q = query.recordAt(DnsSection.QUESTION);
            String name = q.name().endsWith(".") ? q.name().substring(0, q.name().length() - 1) : q.name();
            List<String> ips = answers.get(name);
            DatagramDnsResponse r = new DatagramDnsResponse(query.recipient(), query.sender(), query.id());
            r.addRecord(DnsSection.QUESTION, new DefaultDnsQuestion(q.name(), q.type()));
            if (ips == null) {
                r.setCode(DnsResponseCode.NXDOMAIN);
            } else if (q.type() == DnsRecordType.A) {
                for (String ip : ips) {
                    r.addRecord(DnsSection.ANSWER, new DefaultDnsRawRecord(q.name(), DnsRecordType.A, 3600,
                        Unpooled.wrappedBuffer(InetAddress.getByName(ip).getAddress())));
                }
            }
            ctx.writeAndFlush(r);
        }
    }
}
