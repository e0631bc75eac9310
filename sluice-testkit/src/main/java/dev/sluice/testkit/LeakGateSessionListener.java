package dev.sluice.testkit;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Installs {@link LeakRecorder} when the JUnit launcher session opens, before any test class (and so before any
 * Netty buffer class) is loaded. Registered through {@code META-INF/services}.
 */
public final class LeakGateSessionListener implements LauncherSessionListener {
    @Override
    public void launcherSessionOpened(LauncherSession session) {
        LeakRecorder.install();
    }
}
