package dev.sluice.files.internal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Set;

/**
 * Opens the {@link FileChannel} a reader or writer works on. The default is {@link FileChannel#open(Path, Set,
 * java.nio.file.attribute.FileAttribute[])}; tests substitute a channel that slows down, fails or records what it
 * is asked to do.
 *
 * <p>A channel opened without {@code APPEND} must start at position 0, as {@code FileChannel.open}'s do: the writer
 * writes at the channel's position, from there.
 *
 * <p>Implementations must be thread-safe: subscriptions open their channels on the scheduler's threads.
 */
@FunctionalInterface
public interface ChannelOpener {

    /** {@link FileChannel#open(Path, Set, java.nio.file.attribute.FileAttribute[])} with no attributes. */
    ChannelOpener DEFAULT = FileChannel::open;

    /** Opens {@code path} with {@code options}. */
    FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException;
}
