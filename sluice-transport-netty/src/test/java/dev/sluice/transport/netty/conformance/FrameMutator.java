package dev.sluice.transport.netty.conformance;

import dev.sluice.frame.ErrorCodes;
import dev.sluice.frame.FrameFlags;
import dev.sluice.frame.FrameHeader;
import dev.sluice.frame.FrameType;
import dev.sluice.frame.LeaseFrame;
import dev.sluice.frame.ResumeOkFrame;
import dev.sluice.frame.SetupFrame;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Seeded mutations of valid frames of every type, for fuzzing a live server: bit flips, truncations, changes of
 * the inner length fields, trailing garbage, and random types, flags and stream ids. The same seed gives the same
 * sequence, so a failure replays.
 *
 * <p>Not thread-safe.
 */
final class FrameMutator {

    /** The kinds of mutation, in the order {@link #next()} draws from. */
    enum Kind { BIT_FLIPS, TRUNCATE, INNER_LENGTH, TRAILING_BYTES, TYPE, FLAGS, STREAM_ID, GARBAGE, VALID }

    private final Random random;
    private final List<byte[]> corpus = new ArrayList<>();
    private Kind lastKind;

    FrameMutator(long seed) {
        this.random = new Random(seed);
        buildCorpus();
    }

    /** How many valid frames the mutations start from: at least one per frame type, most in several shapes. */
    int corpusSize() {
        return corpus.size();
    }

    /** The kind of the mutation {@link #next()} returned last. */
    Kind lastKind() {
        return lastKind;
    }

    /** A new mutated frame (without length prefix), as bytes. */
    byte[] next() {
        byte[] base = corpus.get(random.nextInt(corpus.size()));
        Kind kind = Kind.values()[random.nextInt(Kind.values().length)];
        lastKind = kind;
        byte[] f = base.clone();
        switch (kind) {
            case BIT_FLIPS -> {
                int flips = 1 + random.nextInt(4);
                for (int i = 0; i < flips; i++) {
                    int bit = random.nextInt(f.length * 8);
                    f[bit >>> 3] ^= (byte) (1 << (bit & 7));
                }
            }
            case TRUNCATE -> f = Arrays.copyOf(f, random.nextInt(f.length));
            case INNER_LENGTH -> {
                // Overwrite 1-3 bytes after the header: that is where every length and count field lives.
                if (f.length > FrameHeader.SIZE) {
                    int at = FrameHeader.SIZE + random.nextInt(f.length - FrameHeader.SIZE);
                    int n = Math.min(1 + random.nextInt(3), f.length - at);
                    for (int i = 0; i < n; i++) {
                        f[at + i] = (byte) (random.nextBoolean() ? 0xFF : random.nextInt(256));
                    }
                }
            }
            case TRAILING_BYTES -> {
                int extra = 1 + random.nextInt(64);
                f = Arrays.copyOf(f, f.length + extra);
                for (int i = f.length - extra; i < f.length; i++) {
                    f[i] = (byte) random.nextInt(256);
                }
            }
            case TYPE -> setTypeAndFlags(f, random.nextInt(64), flags(f));
            case FLAGS -> setTypeAndFlags(f, type(f), random.nextInt(FrameFlags.MASK + 1));
            case STREAM_ID -> {
                int[] ids = {0, 1, 2, 3, 4, 0x7FFFFFFF, random.nextInt(), random.nextInt(16)};
                int id = ids[random.nextInt(ids.length)];
                f[0] = (byte) (id >>> 24);
                f[1] = (byte) (id >>> 16);
                f[2] = (byte) (id >>> 8);
                f[3] = (byte) id;
            }
            case GARBAGE -> {
                f = new byte[random.nextInt(80)];
                random.nextBytes(f);
            }
            case VALID -> {
                // Unchanged: valid frames in random order are a protocol fuzz of their own.
            }
            default -> throw new IllegalStateException("unhandled mutation " + kind);
        }
        return f;
    }

    private static int type(byte[] f) {
        return (f[4] & 0xFF) >>> 2;
    }

    private static int flags(byte[] f) {
        return ((f[4] & 0x03) << 8) | (f[5] & 0xFF);
    }

    private static void setTypeAndFlags(byte[] f, int type, int flags) {
        int v = type << 10 | flags;
        f[4] = (byte) (v >>> 8);
        f[5] = (byte) v;
    }

    private void buildCorpus() {
        add(TestFrames.setup());
        add(TestFrames.setup(1, 0, true, null));
        add(TestFrames.setup(1, 0, false, TestFrames.utf8("token")));
        ByteBuf setupWithPayload = Unpooled.buffer();
        SetupFrame.encode(setupWithPayload, false, 30_000, 90_000, null, "text/plain", "application/json",
            TestFrames.utf8("setup-md"), TestFrames.utf8("setup-data"));
        add(setupWithPayload);
        add(TestFrames.lease(1000, 10));
        ByteBuf leaseWithMetadata = Unpooled.buffer();
        LeaseFrame.encode(leaseWithMetadata, 5000, 3, TestFrames.utf8("lease-md"));
        add(leaseWithMetadata);
        add(TestFrames.keepAlive(true, "ka"));
        add(TestFrames.keepAlive(false, "ka"));
        for (int id : new int[] {1, 3, 5}) {
            add(TestFrames.requestResponse(id, "rr"));
            add(TestFrames.requestResponse(id, false, "md", "rr"));
            add(TestFrames.requestResponse(id, true, "md", "first"));
            add(TestFrames.requestFnf(id, "fnf"));
            add(TestFrames.requestStream(id, 2, "rs"));
            add(TestFrames.requestStream(id, Integer.MAX_VALUE, "rs"));
            add(TestFrames.requestChannel(id, 1, false, "rc"));
            add(TestFrames.requestChannel(id, 3, true, "rc"));
            add(TestFrames.requestN(id, 1));
            add(TestFrames.requestN(id, Integer.MAX_VALUE));
            add(TestFrames.cancel(id));
            add(TestFrames.next(id, "next"));
            add(TestFrames.complete(id));
            add(TestFrames.payload(id, true, false, true, "md", "frag"));
            add(TestFrames.payload(id, false, true, true, "", "last"));
            add(TestFrames.error(id, ErrorCodes.APPLICATION_ERROR, "app"));
            add(TestFrames.error(id, ErrorCodes.CANCELED, "canceled"));
        }
        add(TestFrames.error(0, ErrorCodes.CONNECTION_ERROR, "conn"));
        add(TestFrames.error(0, ErrorCodes.CONNECTION_CLOSE, "closing"));
        add(TestFrames.error(0, ErrorCodes.INVALID_SETUP, "setup"));
        add(TestFrames.metadataPush("push"));
        add(TestFrames.resume());
        ByteBuf resumeOk = Unpooled.buffer();
        ResumeOkFrame.encode(resumeOk, 42);
        add(resumeOk);
        add(TestFrames.ext(0, true, 7));
        add(TestFrames.ext(1, false, 7));
        // Sanity: the corpus holds every frame type the protocol defines.
        for (int t = FrameType.SETUP; t <= FrameType.RESUME_OK; t++) {
            int type = t;
            if (corpus.stream().noneMatch(f -> type(f) == type)) {
                throw new IllegalStateException("corpus lacks " + FrameType.name(type));
            }
        }
    }

    private void add(ByteBuf frame) {
        try {
            corpus.add(ByteBufUtil.getBytes(frame));
        } finally {
            frame.release();
        }
    }
}
