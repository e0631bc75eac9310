package dev.sluice.testkit;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Captures what is written to System.err, where log lines go in tests (slf4j-simple writes to it), for tests. */
public final class Stderr {

    private Stderr() {
    }

    /** What was written to System.err while {@code action} ran on this thread (and any other meanwhile). */
    public static String during(Runnable action) {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            System.setErr(original);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }
}
