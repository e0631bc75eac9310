package dev.sluice.cli.files.internal;

import dev.sluice.core.exceptions.RejectedException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * The directory a file server serves, and the rules that keep every name a client sends inside it.
 *
 * <h2>Names</h2>
 * A name is a relative path of one or more segments separated by {@code /}, in UTF-8. It is refused (with
 * ERROR[REJECTED], quoting it) if it starts with {@code /} (absolute), contains a segment that is empty, {@code .}
 * or {@code ..}, contains a NUL or a backslash (a separator elsewhere, so never portable), or if its last segment
 * starts with {@value #TEMP_PREFIX} (the server's own temporary files). These rules are checked on the text alone,
 * before the file system is touched.
 *
 * <h2>Symbolic links</h2>
 * The file system is then asked where the name really leads. A name that leads out of the directory through a
 * symbolic link, in any segment, is refused; links that stay inside are followed. For reading, the name must lead
 * to an existing regular file. For writing, missing directories are created (inside), and a last segment that is
 * a directory, or a symbolic link leading out or nowhere, is refused; a link leading inside is replaced by the
 * upload, as {@code rename(2)} replaces links.
 *
 * <p>Thread-safe (immutable). The checks guard against names; they cannot guard against a local user who swaps a
 * checked directory for a link before it is used (that needs {@code openat} with {@code O_NOFOLLOW}, which Java
 * does not offer). The methods that touch the file system block.
 */
public final class ServedDirectory {

    /** How the server's temporary upload files start; clients cannot name them. */
    public static final String TEMP_PREFIX = ".sluice-upload-";

    /** How many characters of a name an error message quotes. */
    private static final int QUOTED_CHARS = 200;

    private final Path root;

    /**
     * Serves {@code dir}, resolved once through any links to its real path.
     *
     * @throws NoSuchFileException if it does not exist
     * @throws NotDirectoryException if it is not a directory
     */
    public ServedDirectory(Path dir) throws IOException {
        Path real = dir.toRealPath();
        if (!Files.isDirectory(real)) {
            throw new NotDirectoryException(dir.toString());
        }
        this.root = real;
    }

    /** The directory's real path. */
    public Path root() {
        return root;
    }

    /**
     * Why {@code name} breaks the name rules, or null if it keeps them. Looks at the text only.
     */
    public static String refusal(String name) {
        if (name.isEmpty()) {
            return "the name is empty";
        }
        if (name.indexOf('\0') >= 0) {
            return "a name cannot contain NUL";
        }
        if (name.indexOf('\\') >= 0) {
            return "a name cannot contain a backslash; separate segments with '/'";
        }
        if (name.startsWith("/")) {
            return "absolute names are not allowed; give a path relative to the served directory";
        }
        int start = 0;
        while (true) {
            int slash = name.indexOf('/', start);
            int end = slash < 0 ? name.length() : slash;
            String segment = name.substring(start, end);
            if (segment.isEmpty()) {
                return "a name cannot contain an empty segment ('//' or a trailing '/')";
            }
            if (segment.equals("..")) {
                return "'..' is not allowed in a name";
            }
            if (segment.equals(".")) {
                return "'.' is not allowed in a name";
            }
            if (slash < 0) {
                return segment.startsWith(TEMP_PREFIX)
                    ? "names starting with '" + TEMP_PREFIX + "' are the server's temporary files" : null;
            }
            start = slash + 1;
        }
    }

    /**
     * Checks {@code name} against the name rules.
     *
     * @throws RejectedException quoting the name and the rule it breaks
     */
    public static void check(String name) {
        String why = refusal(name);
        if (why != null) {
            throw refused(name, why);
        }
    }

    /**
     * The real path of the existing regular file {@code name} leads to.
     *
     * @throws RejectedException if the name breaks the rules, leads out of the directory or not to a regular file
     * @throws NoSuchFileException (with the name as its file) if there is no such file
     */
    public Path resolveForReading(String name) throws IOException {
        check(name);
        Path real;
        try {
            real = root.resolve(name).toRealPath();
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(name);
        }
        if (!real.startsWith(root)) {
            throw refused(name, "it leads out of the served directory through a symbolic link");
        }
        if (!Files.isRegularFile(real)) {
            throw refused(name, "it is not a regular file");
        }
        return real;
    }

    /**
     * Where an upload of {@code name} is to be stored: a path in a real directory inside the served one (created if
     * missing), whose last segment is not a directory nor a link leading out.
     *
     * @throws RejectedException if the name breaks the rules or leads out of the directory
     */
    public Path resolveForWriting(String name) throws IOException {
        check(name);
        Path target = root.resolve(name);
        Path parent = target.getParent();
        // The nearest existing ancestor decides where the missing directories would go.
        Path existing = parent;
        while (!Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            existing = existing.getParent();
        }
        Path realExisting;
        try {
            realExisting = existing.toRealPath();
        } catch (NoSuchFileException e) {
            throw refused(name, "'" + root.relativize(existing) + "' is a broken symbolic link");
        }
        if (!realExisting.startsWith(root)) {
            throw refused(name, "it leads out of the served directory through a symbolic link");
        }
        if (!Files.isDirectory(realExisting)) {
            throw refused(name, "'" + root.relativize(existing) + "' is not a directory");
        }
        Path realParent = realExisting.resolve(existing.relativize(parent));
        Files.createDirectories(realParent);
        Path file = realParent.resolve(target.getFileName());
        if (Files.isSymbolicLink(file)) {
            Path linked;
            try {
                linked = file.toRealPath();
            } catch (NoSuchFileException e) {
                throw refused(name, "it is a broken symbolic link");
            }
            if (!linked.startsWith(root)) {
                throw refused(name, "it is a symbolic link leading out of the served directory");
            }
        }
        if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
            throw refused(name, "it is a directory");
        }
        return file;
    }

    /** An ERROR[REJECTED] quoting {@code name}. */
    static RejectedException refused(String name, String why) {
        return new RejectedException("refused " + quote(name) + ": " + why);
    }

    /**
     * {@code name} in single quotes for a message: control characters escaped as {@code \}{@code uXXXX}, at most
     * {@value #QUOTED_CHARS} characters of it, so a hostile name cannot forge log lines or flood them.
     */
    public static String quote(String name) {
        StringBuilder b = new StringBuilder(Math.min(name.length(), QUOTED_CHARS) + 8).append('\'');
        int n = Math.min(name.length(), QUOTED_CHARS);
        for (int i = 0; i < n; i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        b.append('\'');
        if (name.length() > QUOTED_CHARS) {
            b.append("... (").append(name.length()).append(" characters)");
        }
        return b.toString();
    }
}
