package dev.sluice.transport.netty.internal;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;

/**
 * A TLS server's context, replaced when its certificate, key or client CA files change on disk, so that a renewed
 * certificate is served without a restart.
 *
 * <p><b>How changes are found:</b> polling. {@link #reloadIfChanged()} reads each file's modification time, size and
 * identity (device and inode, where the file system has them), following symbolic links, and loads the files again
 * when any differs from what was loaded; {@link #watch} calls it every interval on one daemon thread shared by the
 * process ({@code sluice-tls-reload}). Polling rather than a {@code WatchService}: it sees a file replaced behind a
 * symbolic link (certbot's {@code live/} links, Kubernetes' {@code ..data} swap of a mounted secret), works on network
 * file systems that raise no events, and costs three {@code stat} calls per interval.
 *
 * <p><b>What a reload changes:</b> connections accepted after it handshake with the new context; open connections keep
 * the session they have. Files that cannot be loaded (unreadable, not PEM, a key that does not belong to the
 * certificate, as when a renewal has written the certificate but not yet the key) leave the previous context in
 * place and log one WARN line; the same broken files are not reported again, and the next change is loaded as usual.
 *
 * <p>Thread-safe: {@link #current()} is a volatile read for the accepting event loops; reloads are serialized.
 */
public final class ReloadingServerContext {

    private final Path chain;
    private final Path key;
    private final Path clientCa;
    private final SslProvider provider;
    /** The server transport's logger: reloads are reported as that server's events. */
    private final Logger log;
    private volatile SslContext current;
    /** Guarded by this: the files' stamps when last loaded, and when last found broken (null if not since). */
    private List<Object> loadedStamp;
    private List<Object> brokenStamp;

    /**
     * Loads the files once.
     *
     * @param log where reloads and unusable files are reported: the logger of the server transport
     * @throws IllegalArgumentException if they cannot be loaded (see {@link TlsContexts#server})
     */
    public ReloadingServerContext(Path chain, Path key, Path clientCa, SslProvider provider, Logger log) {
        this.chain = chain;
        this.key = key;
        this.clientCa = clientCa;
        this.provider = provider;
        this.log = log;
        List<Object> stamp = stamp();
        TlsContexts.ServerContext loaded = TlsContexts.server(chain, key, clientCa, provider);
        warnIfExpired(loaded.leaf());
        this.current = loaded.context();
        this.loadedStamp = stamp;
    }

    /** The context new connections handshake with. */
    public SslContext current() {
        return current;
    }

    /** The provider the contexts are built for. */
    public SslProvider provider() {
        return provider;
    }

    /**
     * Loads the files again if they changed since the last load and installs the new context; files that cannot be
     * loaded keep the current one and are logged at WARN, once. Blocking file I/O: not for an event loop.
     *
     * @return whether a new context was installed
     */
    public synchronized boolean reloadIfChanged() {
        List<Object> stamp = stamp();
        if (stamp.equals(loadedStamp) || stamp.equals(brokenStamp)) {
            return false;
        }
        try {
            TlsContexts.ServerContext loaded = TlsContexts.server(chain, key, clientCa, provider);
            current = loaded.context();
            loadedStamp = stamp;
            brokenStamp = null;
            X509Certificate leaf = loaded.leaf();
            log.info("TLS certificate reloaded from {}: {}, valid until {}; new connections use it", chain,
                leaf.getSubjectX500Principal().getName(), leaf.getNotAfter().toInstant());
            warnIfExpired(leaf);
            return true;
        } catch (RuntimeException e) {
            brokenStamp = stamp;
            log.warn("TLS certificate files changed but cannot be loaded, still serving the previous certificate: {}",
                e.getMessage());
            return false;
        }
    }

    /**
     * Calls {@link #reloadIfChanged()} every {@code interval} until the returned future is cancelled.
     *
     * @param interval > 0
     */
    public ScheduledFuture<?> watch(Duration interval) {
        long nanos = interval.toNanos();
        return Timer.TIMER.scheduleWithFixedDelay(() -> {
            try {
                reloadIfChanged();
            } catch (RuntimeException e) {
                // A failure to even stat the files must not end the schedule.
                log.warn("TLS certificate reload check failed: {}", String.valueOf(e));
            }
        }, nanos, nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * What identifies each file's content without reading it: modification time, size and file key. A file that
     * cannot be read stamps as its error message, so that it differs from any readable state.
     */
    private List<Object> stamp() {
        List<Object> s = new ArrayList<>(9);
        for (Path p : new Path[] {chain, key, clientCa}) {
            if (p == null) {
                continue;
            }
            try {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                s.add(a.lastModifiedTime());
                s.add(a.size());
                s.add(Objects.toString(a.fileKey()));
            } catch (IOException e) {
                s.add(String.valueOf(e));
            }
        }
        return s;
    }

    private void warnIfExpired(X509Certificate leaf) {
        Instant notAfter = leaf.getNotAfter().toInstant();
        if (notAfter.isBefore(Instant.now())) {
            log.warn("the TLS certificate {} expired at {}: clients will refuse it",
                leaf.getSubjectX500Principal().getName(), notAfter);
        }
    }

    /** Started on first use: a single daemon thread for every server's checks. */
    private static final class Timer {
        static final ScheduledExecutorService TIMER = create();

        private static ScheduledExecutorService create() {
            ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1,
                new DefaultThreadFactory("sluice-tls-reload", true));
            t.setRemoveOnCancelPolicy(true);
            return t;
        }
    }
}
