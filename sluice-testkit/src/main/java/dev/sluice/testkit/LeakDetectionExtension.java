package dev.sluice.testkit;

import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test (or, for leaks only found after a garbage collection, its class) when Netty reported a leaked
 * buffer. Loaded for every test class through JUnit's extension auto-detection, which the parent pom turns on.
 */
public final class LeakDetectionExtension implements AfterEachCallback, AfterAllCallback {

    @Override
    public void afterEach(ExtensionContext context) {
        failOn(LeakRecorder.drain(), context.getDisplayName());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        LeakRecorder.collectAndPoll();
        failOn(LeakRecorder.drain(), context.getDisplayName());
    }

    private static void failOn(List<String> reports, String where) {
        if (!reports.isEmpty()) {
            throw new AssertionError(reports.size() + " buffer leak(s) reported by Netty during " + where + ":\n"
                    + String.join("\n", reports));
        }
    }
}
