package dev.sluice.cli.files.internal;

import java.net.SocketAddress;
import org.slf4j.Logger;

/**
 * What a {@link FileService} reports about each transfer once it has ended: one call per transfer, after the
 * server has cleaned up (an aborted upload's temporary file is gone by then).
 *
 * <p>Implementations must be thread-safe: calls come from event-loop and I/O threads. Names are quoted with
 * {@link ServedDirectory#quote} before they reach a log.
 */
public interface TransferListener {

    /** An upload was stored under {@code name}, with this checksum. */
    void uploadStored(SocketAddress peer, String name, Checksum stored);

    /**
     * An upload ended without storing anything: refused, failed or cancelled ({@code reason} says which). The
     * name, if any was stored before, is unchanged.
     */
    void uploadAborted(SocketAddress peer, String name, String reason);

    /** A download sent the whole file, with this checksum. */
    void downloadSent(SocketAddress peer, String name, Checksum sent);

    /** A download ended early: refused, failed or cancelled. */
    void downloadAborted(SocketAddress peer, String name, String reason);

    /** A listener that logs each call at INFO (successes) or WARN (the rest). */
    static TransferListener logging(Logger log) {
        return new TransferListener() {
            @Override
            public void uploadStored(SocketAddress peer, String name, Checksum stored) {
                log.info("stored {} from {}: {} bytes, sha256 {}", ServedDirectory.quote(name), peer, stored.bytes(),
                    stored.sha256());
            }

            @Override
            public void uploadAborted(SocketAddress peer, String name, String reason) {
                log.warn("upload of {} from {} stored nothing: {}", ServedDirectory.quote(name), peer, reason);
            }

            @Override
            public void downloadSent(SocketAddress peer, String name, Checksum sent) {
                log.info("sent {} to {}: {} bytes, sha256 {}", ServedDirectory.quote(name), peer, sent.bytes(),
                    sent.sha256());
            }

            @Override
            public void downloadAborted(SocketAddress peer, String name, String reason) {
                log.warn("download of {} by {} ended early: {}", ServedDirectory.quote(name), peer, reason);
            }
        };
    }
}
