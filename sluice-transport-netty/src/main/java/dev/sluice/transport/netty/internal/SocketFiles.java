package dev.sluice.transport.netty.internal;

import java.io.IOException;
import java.net.ConnectException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a Unix domain socket server does with the file system around its bind: the stale-file rule before, the
 * permissions after. Blocking file-system calls; run them off the event loops. Stateless.
 *
 * <p><b>The stale-file rule.</b> A server that dies without closing leaves its socket file behind, and bind then
 * fails with "address already in use" although nobody listens. So, before binding, when the path exists:
 * <ul>
 *   <li>not a socket (a regular file, a directory, a symbolic link, a pipe): refuse, and leave it alone;</li>
 *   <li>a socket that accepts a connection (or whose backlog is full): another server is alive there, refuse;</li>
 *   <li>a socket whose connection is refused: nobody listens, the file is stale; delete it and bind.</li>
 * </ul>
 * Anything else the probe meets (permission denied, say) refuses without deleting. The probe is a non-blocking
 * connect, closed at once: a live server sees one connection that sends nothing and goes away.
 */
public final class SocketFiles {

    private static final Logger log = LoggerFactory.getLogger(SocketFiles.class);

    /** {@code S_IFMT} and {@code S_IFSOCK} of {@code st_mode}. */
    private static final int S_IFMT = 0170000;
    private static final int S_IFSOCK = 0140000;

    private SocketFiles() {
    }

    /** Why a server may not bind a path; the message is the whole reason. */
    public static final class Refused extends IOException {
        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message);
        }

        Refused(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Applies the stale-file rule to {@code path} (see the class comment).
     *
     * @return true when a stale socket file was deleted
     * @throws Refused when the path must not be bound
     */
    public static boolean prepareBind(Path path) throws Refused {
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException absent) {
            return false;
        } catch (IOException e) {
            throw new Refused("cannot read " + path + ": " + e.getMessage(), e);
        }
        if (!isSocket(path, attrs)) {
            throw new Refused(path + " exists and is not a socket (" + kind(attrs) + "); not deleting it");
        }
        switch (probe(path)) {
            case LISTENING:
                throw new Refused("address in use: another server listens on " + path);
            case GONE:
                return false;
            default:
                break;
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new Refused("cannot delete the stale socket file " + path + ": " + e.getMessage(), e);
        }
        log.info("deleted the stale socket file {}: nobody listened on it", path);
        return true;
    }

    /**
     * Sets the permissions of a bound socket's file.
     *
     * @throws Refused if the file system refuses
     */
    public static void applyPermissions(Path path, Set<PosixFilePermission> permissions) throws Refused {
        try {
            Files.setPosixFilePermissions(path, permissions);
        } catch (IOException | UnsupportedOperationException e) {
            throw new Refused("cannot set permissions " + PosixFilePermissions.toString(permissions) + " on "
                + path + ": " + e.getMessage(), e);
        }
    }

    enum Probe { LISTENING, STALE, GONE }

    /** Whether someone listens on the socket at {@code path}. */
    static Probe probe(Path path) throws Refused {
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.configureBlocking(false);
            // Connected, or pending: either way a listener is there.
            ch.connect(UnixDomainSocketAddress.of(path));
            return Probe.LISTENING;
        } catch (ConnectException refused) {
            return Probe.STALE;
        } catch (UnsupportedOperationException e) {
            throw new Refused(UnixDomainSockets.NO_UNIX_SOCKETS, e);
        } catch (IOException e) {
            String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
            if (m.contains("no such file")) {
                return Probe.GONE;
            }
            if (m.contains("temporarily unavailable")) {
                // A full accept backlog (EAGAIN): a server is there but not keeping up.
                return Probe.LISTENING;
            }
            throw new Refused("cannot tell whether a server listens on " + path + ": " + e.getMessage()
                + "; not deleting it", e);
        }
    }

    private static boolean isSocket(Path path, BasicFileAttributes attrs) {
        try {
            Object mode = Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS);
            return mode instanceof Integer m && (m & S_IFMT) == S_IFSOCK;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException noUnixView) {
            // No "unix" attribute view: "other" covers sockets, but also pipes and devices, which bind refuses too.
            return attrs.isOther();
        }
    }

    private static String kind(BasicFileAttributes attrs) {
        if (attrs.isRegularFile()) {
            return "a regular file";
        }
        if (attrs.isDirectory()) {
            return "a directory";
        }
        if (attrs.isSymbolicLink()) {
            return "a symbolic link";
        }
        return "a special file";
    }
}
