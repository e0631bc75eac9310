package dev.sluice.bench.throughput;

import dev.sluice.bench.throughput.internal.BenchMain;
import dev.sluice.bench.throughput.internal.ChildOptions;
import dev.sluice.bench.throughput.internal.FloorChannels;
import dev.sluice.bench.throughput.internal.FloorFrames;
import dev.sluice.bench.throughput.internal.FrameWalker;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import java.net.InetSocketAddress;

/**
 * The raw-Netty floor's server: moves the bytes an RSocket responder would, with no framework work at all, so the
 * distance from any stack to it is what that stack's work costs. Request-stream: after the first inbound frame it
 * writes pre-encoded PAYLOAD frames, {@value #STREAM_BATCH} to a buffer, for as long as the channel is writable.
 * Request-response: it counts the complete REQUEST_RESPONSE frames in each read by their length prefixes and
 * answers them at once with as many pre-encoded PAYLOAD(N|C) frames, in slices of at most {@link
 * FloorFrames#FRAMES_PER_FLUSH}, each flushed (the batching Sluice's writer uses). No decoding, no dispatch, no
 * per-message allocation (a recycled duplicate or slice per batch).
 */
public final class NettyFloorServer {

    /** PAYLOAD frames per written buffer in a stream. */
    static final int STREAM_BATCH = 1024;
    /** Pre-encoded answers: the most written in one slice. */
    static final int ANSWERS = FloorFrames.FRAMES_PER_FLUSH;
    /** Stream batches written per event-loop turn before letting reads in. */
    private static final int BATCHES_PER_TURN = 16;

    private NettyFloorServer() {
    }

    public static void main(String[] args) {
        BenchMain.server(args, NettyFloorServer::start);
    }

    private static int start(ChildOptions o) {
        ByteBuf frames = switch (o.interaction()) {
            case STREAM -> FloorFrames.streamPayloads(STREAM_BATCH, o.size());
            case RESPONSE -> FloorFrames.answers(ANSWERS, o.size());
            default -> throw BenchMain.unsupported("the raw-Netty floor", o);
        };
        boolean stream = o.interaction() == Interaction.STREAM;
        Channel server = new ServerBootstrap()
            .group(FloorChannels.group("floor-accept"), FloorChannels.group("floor-io"))
            .channel(FloorChannels.serverChannel())
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 * 1024, 1024 * 1024))
            .childHandler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel ch) {
                    ch.pipeline().addLast(stream ? new Streamer(frames) : new Answerer(frames));
                }
            })
            .bind(new InetSocketAddress(o.host(), o.port()))
            .syncUninterruptibly()
            .channel();
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    /** Streams pre-encoded PAYLOAD frames. Event-loop confined. */
    private static final class Streamer extends ChannelInboundHandlerAdapter implements Runnable {
        private final ByteBuf batch;
        private ChannelHandlerContext ctx;
        private boolean started;
        private boolean scheduled;

        Streamer(ByteBuf batch) {
            this.batch = batch;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ((ByteBuf) msg).release();
            if (!started) {
                started = true;
                schedule();
            }
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (started && ctx.channel().isWritable()) {
                schedule();
            }
        }

        private void schedule() {
            if (!scheduled) {
                scheduled = true;
                ctx.executor().execute(this);
            }
        }

        @Override
        public void run() {
            scheduled = false;
            Channel ch = ctx.channel();
            if (!ch.isActive()) {
                return;
            }
            for (int i = 0; i < BATCHES_PER_TURN && ch.isWritable(); i++) {
                ctx.write(batch.retainedDuplicate(), ctx.voidPromise());
            }
            ctx.flush();
            if (ch.isWritable()) {
                schedule();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // The client going away (connection reset) is how every run ends: close, nothing to report.
            ctx.close();
        }
    }

    /** Answers each request with a pre-encoded PAYLOAD(N|C). Event-loop confined. */
    private static final class Answerer extends ChannelInboundHandlerAdapter {
        private final ByteBuf answers;
        private final int frameLength;
        private final FrameWalker walker = new FrameWalker();
        private long pending;

        Answerer(ByteBuf answers) {
            this.answers = answers;
            this.frameLength = FloorFrames.frameLength(answers, ANSWERS);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf in = (ByteBuf) msg;
            pending += walker.walk(in);
            in.release();
            while (pending > 0) {
                int k = (int) Math.min(pending, FloorFrames.FRAMES_PER_FLUSH);
                ctx.writeAndFlush(answers.retainedSlice(0, k * frameLength), ctx.voidPromise());
                pending -= k;
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // The client going away (connection reset) is how every run ends: close, nothing to report.
            ctx.close();
        }
    }
}
