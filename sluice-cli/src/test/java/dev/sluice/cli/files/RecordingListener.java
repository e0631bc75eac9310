package dev.sluice.cli.files;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.files.internal.Checksum;
import dev.sluice.cli.files.internal.TransferListener;
import java.net.SocketAddress;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Records what a file server reports, one line per transfer, for tests to wait on. */
final class RecordingListener implements TransferListener {

    private static final long WAIT_SECONDS = 10;

    private final BlockingQueue<String> events = new LinkedBlockingQueue<>();

    @Override
    public void uploadStored(SocketAddress peer, String name, Checksum stored) {
        events.add("stored " + name + " " + stored);
    }

    @Override
    public void uploadAborted(SocketAddress peer, String name, String reason) {
        events.add("upload aborted " + name + ": " + reason);
    }

    @Override
    public void downloadSent(SocketAddress peer, String name, Checksum sent) {
        events.add("sent " + name + " " + sent);
    }

    @Override
    public void downloadAborted(SocketAddress peer, String name, String reason) {
        events.add("download aborted " + name + ": " + reason);
    }

    /** The next event; fails if none comes within 10 s. */
    String next() {
        try {
            String e = events.poll(WAIT_SECONDS, TimeUnit.SECONDS);
            assertThat(e).as("an event from the file server within " + WAIT_SECONDS + " s").isNotNull();
            return e;
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new AssertionError(ex);
        }
    }

    /** Whether an event is waiting now (the server reports each transfer once: a second one would be a bug). */
    String poll() {
        return events.poll();
    }
}
