package dev.sluice.cli.files.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.SocketAddress;

/**
 * A {@link TransferListener} that counts transfers ({@code sluice.file.transfers} by direction and outcome) and
 * the bytes of the completed ones ({@code sluice.file.bytes} by direction), then tells the listener it wraps.
 */
public final class TransferMeters implements TransferListener {

    private final TransferListener next;
    private final Counter uploadsStored;
    private final Counter uploadsAborted;
    private final Counter downloadsSent;
    private final Counter downloadsAborted;
    private final Counter bytesReceived;
    private final Counter bytesSent;

    public TransferMeters(TransferListener next, MeterRegistry registry) {
        this.next = next;
        this.uploadsStored = transfers(registry, "upload", "stored");
        this.uploadsAborted = transfers(registry, "upload", "aborted");
        this.downloadsSent = transfers(registry, "download", "sent");
        this.downloadsAborted = transfers(registry, "download", "aborted");
        this.bytesReceived = bytes(registry, "received");
        this.bytesSent = bytes(registry, "sent");
    }

    @Override
    public void uploadStored(SocketAddress peer, String name, Checksum stored) {
        uploadsStored.increment();
        bytesReceived.increment(stored.bytes());
        next.uploadStored(peer, name, stored);
    }

    @Override
    public void uploadAborted(SocketAddress peer, String name, String reason) {
        uploadsAborted.increment();
        next.uploadAborted(peer, name, reason);
    }

    @Override
    public void downloadSent(SocketAddress peer, String name, Checksum sent) {
        downloadsSent.increment();
        bytesSent.increment(sent.bytes());
        next.downloadSent(peer, name, sent);
    }

    @Override
    public void downloadAborted(SocketAddress peer, String name, String reason) {
        downloadsAborted.increment();
        next.downloadAborted(peer, name, reason);
    }

    private static Counter transfers(MeterRegistry registry, String direction, String outcome) {
        return Counter.builder("sluice.file.transfers").description("file transfers, by direction and outcome")
            .tag("direction", direction).tag("outcome", outcome).register(registry);
    }

    private static Counter bytes(MeterRegistry registry, String direction) {
        return Counter.builder("sluice.file.bytes").description("bytes of completed file transfers")
            .baseUnit("bytes").tag("direction", direction).register(registry);
    }
}
