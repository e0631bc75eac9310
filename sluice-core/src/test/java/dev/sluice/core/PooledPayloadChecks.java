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

    private static void check(boolean ok, String what) {
        if (!ok) {
            System.out.println("failed: " + what);
            System.exit(1);
        }
    }
}
