package dev.sluice.files.internal;

/**
 * Hears how a {@link FileWriteSubscriber} ended: exactly one of the two methods is called once, unless the write
 * was cancelled, in which case neither is.
 *
 * <p>Called on the writer's scheduler thread (or, if the scheduler rejected the work, on whichever thread found
 * out), after the file has been closed.
 */
public interface WriteListener {

    /** Every item was written (and forced to disk if asked); {@code bytes} is how many bytes that came to. */
    void onWritten(long bytes);

    /** The write failed: the source failed, the file could not be opened, written, forced or closed. */
    void onFailed(Throwable error);
}
