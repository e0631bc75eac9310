package dev.sluice.core;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;

/**
 * Checks of the payload pool that the test JVMs cannot make (they run with {@code -Dsluice.payload.debug=true},
 * which keeps released payloads out of the pool): run in a JVM of its own by {@link PooledPayloadTest}. Prints
 * {@code ok}, or exits 1 with what failed.
 */
public final class PooledPayloadChecks {

    private PooledPayloadChecks() {
    }

    public static void main(String[] args) {
        check(!RefCountedPayload.DEBUG, "the pool must be on: run without -Dsluice.payload.debug=true");
        aReleasedBorrowerWhoseInstanceWasTakenAgainIsLeftAloneWhenItsLoanEnds();
        aBorrowerReleasedByItsMakerGivesNothingBackToTheFrame();
        aReleasedBorrowerCarriesTheNextFrame();
        aHeldBorrowerIsNotReused();
        aPooledPayloadIsNeverTakenForReuse();
        aBorrowerReleasedOnAnotherThreadIsNotReused();
        System.out.println("ok");
    }

    /** The responder's common shape: the request is released, the answer made (the same instance), then settled. */
    private static void aReleasedBorrowerWhoseInstanceWasTakenAgainIsLeftAloneWhenItsLoanEnds() {
        ByteBuf frame = Unpooled.copiedBuffer("hello", StandardCharsets.US_ASCII);
        Payload request = Payload.borrowRegions(frame, -1, -1, 0, 5);
        request.release();
        Payload answer = Payload.create(Unpooled.copiedBuffer("answer", StandardCharsets.US_ASCII));
        check(answer == request, "the pool hands the released instance out again (else this check proves nothing)");
        Payload.endBorrow(request);
        check(frame.refCnt() == 1, "the frame keeps only its own reference: " + frame.refCnt());
        check(answer.refCnt() == 1 && answer.dataUtf8().equals("answer"), "the answer is untouched: " + answer);
        answer.release();
        check(frame.release(), "the frame is freed by its own release");
    }

    private static void aBorrowerReleasedByItsMakerGivesNothingBackToTheFrame() {
        ByteBuf frame = Unpooled.copiedBuffer("hello", StandardCharsets.US_ASCII);
        Payload p = Payload.borrowRegions(frame, -1, -1, 0, 5);
        check(p.dataUtf8().equals("hello"), "the payload reads the frame");
        check(p.release(), "the last release");
        check(frame.refCnt() == 1, "a borrower's release leaves the frame's count alone: " + frame.refCnt());
        Payload.endBorrow(p);
        check(frame.refCnt() == 1, "and so does the end of its loan: " + frame.refCnt());
        Payload held = Payload.borrowRegions(frame, -1, -1, 0, 5);
        Payload.endBorrow(held);
        check(frame.refCnt() == 2, "a payload held when its loan ends takes a reference: " + frame.refCnt());
        held.release();
        check(frame.refCnt() == 1, "and gives it back on release: " + frame.refCnt());
        frame.release();
    }

    /** The engine's shape: each frame's payload, released within its loan, carries the next frame. */
    private static void aReleasedBorrowerCarriesTheNextFrame() {
        ByteBuf first = Unpooled.copiedBuffer("first", StandardCharsets.US_ASCII);
        ByteBuf second = Unpooled.copiedBuffer("xxsecond", StandardCharsets.US_ASCII);
        Payload p = Payload.borrowRegions(null, first, -1, -1, 0, 5);
        check(p.dataUtf8().equals("first"), "the first frame reads: " + p);
        check(p.release(), "the last release");
        check(Payload.endBorrow(p), "a payload released within its loan may carry the next frame");
        Payload q = Payload.borrowRegions(p, second, -1, -1, 2, 6);
        check(q == p, "the released instance carries the next frame");
        check(q.refCnt() == 1 && q.dataUtf8().equals("second") && !q.hasMetadata(), "it reads the new frame: " + q);
        q.release();
        Payload made = Payload.create(Unpooled.copiedBuffer("made", StandardCharsets.US_ASCII));
        check(made != q, "a reused instance is never handed out by the pool");
        made.release();
        check(Payload.endBorrow(q), "and is reusable again");
        check(first.refCnt() == 1 && second.refCnt() == 1, "neither frame's count was touched: " + first.refCnt()
            + ", " + second.refCnt());
        first.release();
        second.release();
    }

    private static void aHeldBorrowerIsNotReused() {
        ByteBuf first = Unpooled.copiedBuffer("first", StandardCharsets.US_ASCII);
        ByteBuf second = Unpooled.copiedBuffer("second", StandardCharsets.US_ASCII);
        Payload held = Payload.borrowRegions(null, first, -1, -1, 0, 5);
        check(!Payload.endBorrow(held), "a payload still held when its loan ends may not carry the next frame");
        check(first.refCnt() == 2, "it took its reference to its frame: " + first.refCnt());
        Payload next = Payload.borrowRegions(held, second, -1, -1, 0, 6);
        check(next != held, "passed as reuse anyway, it is not reused");
        check(held.dataUtf8().equals("first") && next.dataUtf8().equals("second"), "each reads its own frame");
        next.release();
        Payload.endBorrow(next);
        held.release();
        check(first.refCnt() == 1, "the held payload gave its reference back: " + first.refCnt());
        first.release();
        second.release();
    }

    private static void aPooledPayloadIsNeverTakenForReuse() {
        Payload pooled = Payload.create(Unpooled.copiedBuffer("made", StandardCharsets.US_ASCII));
        pooled.release();
        ByteBuf frame = Unpooled.copiedBuffer("frame", StandardCharsets.US_ASCII);
        Payload p = Payload.borrowRegions(pooled, frame, -1, -1, 0, 5);
        check(p != pooled, "a released payload of the pool is not reused: the pool may hand it out again");
        Payload again = Payload.create(Unpooled.copiedBuffer("again", StandardCharsets.US_ASCII));
        check(again.dataUtf8().equals("again") && p.dataUtf8().equals("frame"), "each reads its own bytes");
        again.release();
        p.release();
        Payload.endBorrow(p);
        frame.release();
    }

    /** Another thread's release may still be clearing the instance when its maker sees the count at 0. */
    private static void aBorrowerReleasedOnAnotherThreadIsNotReused() {
        ByteBuf frame = Unpooled.copiedBuffer("frame", StandardCharsets.US_ASCII);
        Payload p = Payload.borrowRegions(null, frame, -1, -1, 0, 5);
        Thread other = new Thread(p::release);
        other.start();
        try {
            other.join();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        check(p.refCnt() == 0, "released on the other thread");
        check(!Payload.endBorrow(p), "a payload released on another thread within its loan is not reused");
        check(frame.refCnt() == 1, "the frame's count is untouched: " + frame.refCnt());
        frame.release();
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            System.out.println("failed: " + what);
            System.exit(1);
        }
    }
}
