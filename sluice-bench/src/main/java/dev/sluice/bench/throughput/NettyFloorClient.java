package dev.sluice.bench.throughput;

import dev.sluice.bench.throughput.internal.BenchMain;
import dev.sluice.bench.throughput.internal.ChildOptions;
import dev.sluice.bench.throughput.internal.ClientReport;
import dev.sluice.bench.throughput.internal.FloorChannels;
import dev.sluice.bench.throughput.internal.FloorFrames;
import dev.sluice.bench.throughput.internal.FrameWalker;
import dev.sluice.bench.throughput.internal.Latency;
import dev.sluice.bench.throughput.internal.Meter;
import dev.sluice.bench.throughput.internal.Pacer;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;

/**
 * The raw-Netty floor's client: sends pre-encoded RSocket request frames and counts the frames that come back by
 * their length prefixes, with no decoding. Request-stream: one REQUEST_STREAM, then counting. Request-response:
 * {@code --window} requests in flight, answering each read's completed frames with as many new requests in slices
 * of at most {@link FloorFrames#FRAMES_PER_FLUSH}, each flushed; or, after that loop's warm-up, paced at {@code
 * --rate} by a {@link Pacer} on the channel's own event loop, with due times in a ring matched to answers in order
 * (the floor server answers in order). Allocation-free per message.
 */
public final class NettyFloorClient {

    /** Pre-encoded requests: the most written in one slice. */
    static final int REQUESTS = FloorFrames.FRAMES_PER_FLUSH;

    private NettyFloorClient() {
    }

    public static void main(String[] args) {
        BenchMain.client(args, NettyFloorClient::start);
    }

    private static void start(ChildOptions o, Meter meter, Latency latency, ClientReport report) {
        ChannelInboundHandlerAdapter handler = switch (o.interaction()) {
            case STREAM -> new StreamCounter(FloorFrames.streamRequest(o.size()), meter, report);
            case RESPONSE -> new Requester(FloorFrames.requests(REQUESTS, o.size()), o, meter, latency, report);
            default -> throw BenchMain.unsupported("the raw-Netty floor", o);
        };
        EventLoopGroup group = FloorChannels.group("floor-client");
        new Bootstrap()
            .group(group)
            .channel(FloorChannels.clientChannel())
            .option(ChannelOption.TCP_NODELAY, true)
            .handler(handler)
            .connect(o.host(), o.port())
            .syncUninterruptibly();
    }

    /** Counts an infinite stream's frames. Event-loop confined. */
    private static final class StreamCounter extends ChannelInboundHandlerAdapter {
        private final ByteBuf request;
        private final Meter meter;
        private final ClientReport report;
        private final FrameWalker walker = new FrameWalker();

        StreamCounter(ByteBuf request, Meter meter, ClientReport report) {
            this.request = request;
            this.meter = meter;
            this.report = report;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ctx.writeAndFlush(request);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf in = (ByteBuf) msg;
            meter.add(walker.walk(in));
            in.release();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            report.fail(new IllegalStateException("the connection closed"));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            report.fail(cause);
        }
    }

    /** Request-response, closed loop or paced. Event-loop confined. */
    private static final class Requester extends ChannelInboundHandlerAdapter implements Pacer.Sender {
        private final ByteBuf requests;
        private final int frameLength;
        private final ChildOptions options;
        private final Meter meter;
        private final Latency latency;
        private final ClientReport report;
        private final FrameWalker walker = new FrameWalker();
        /** Paced: due times of unanswered paced requests, oldest at {@code head}. */
        private final long[] due;
        private long head;
        private long tail;
        /** Closed-loop requests not yet answered; answers come in order, so theirs come before any paced one's. */
        private long closedInFlight;
        private boolean closedLoop = true;
        /** Requests to write at the end of this read or pacing tick. */
        private long toWrite;
        private ChannelHandlerContext ctx;

        Requester(ByteBuf requests, ChildOptions options, Meter meter, Latency latency, ClientReport report) {
            this.requests = requests;
            this.frameLength = FloorFrames.frameLength(requests, REQUESTS);
            this.options = options;
            this.meter = meter;
            this.latency = latency;
            this.report = report;
            this.due = options.paced() ? new long[Integer.highestOneBit(options.maxInFlight() * 2 - 1)] : null;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            this.ctx = ctx;
            toWrite = options.window();
            closedInFlight = options.window();
            writeRequests(ctx);
            if (options.paced()) {
                new Pacer(options.rate(), options.maxInFlight(), System::nanoTime).start(this, ctx.executor(),
                    report);
            }
        }

        @Override
        public void stopClosedLoop() {
            closedLoop = false;
        }

        @Override
        public void tickDone() {
            writeRequests(ctx);
        }

        @Override
        public void send(long dueNanos) {
            due[(int) (tail++ & (due.length - 1))] = dueNanos;
            toWrite++;
        }

        @Override
        public int inFlight() {
            return (int) (tail - head);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf in = (ByteBuf) msg;
            int answers = walker.walk(in);
            in.release();
            meter.add(answers);
            long closed = Math.min(answers, closedInFlight);
            closedInFlight -= closed;
            if (closedLoop) {
                toWrite += closed;
                closedInFlight += closed;
            }
            if (answers > closed) {
                latency.recordAll(due, head, (int) (answers - closed), System.nanoTime());
                head += answers - closed;
            }
            writeRequests(ctx);
        }

        private void writeRequests(ChannelHandlerContext ctx) {
            if (toWrite == 0) {
                return;
            }
            while (toWrite > 0) {
                int k = (int) Math.min(toWrite, FloorFrames.FRAMES_PER_FLUSH);
                ctx.writeAndFlush(requests.retainedSlice(0, k * frameLength), ctx.voidPromise());
                toWrite -= k;
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            report.fail(new IllegalStateException("the connection closed"));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            report.fail(cause);
        }
    }
}
