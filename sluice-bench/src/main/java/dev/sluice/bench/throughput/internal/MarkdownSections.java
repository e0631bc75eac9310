package dev.sluice.bench.throughput.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Replaces one generated section of a Markdown file, leaving the rest as it was: the section sits between
 * {@code <!-- begin NAME -->} and {@code <!-- end NAME -->} comment lines. A file without the section gets it
 * appended; a missing file is created with a title. Not thread-safe.
 */
public final class MarkdownSections {

    private MarkdownSections() {
    }

    /** {@code text} with section {@code name} set to {@code body}. */
    public static String replace(String text, String name, String body) {
        String begin = "<!-- begin " + name + " -->";
        String end = "<!-- end " + name + " -->";
        String block = begin + "\n" + body.strip() + "\n" + end + "\n";
        int b = text.indexOf(begin);
        int e = b < 0 ? -1 : text.indexOf(end, b);
        if (b < 0 || e < 0) {
            String sep = text.isEmpty() || text.endsWith("\n\n") ? "" : text.endsWith("\n") ? "\n" : "\n\n";
            return text + sep + block;
        }
        int after = e + end.length();
        if (after < text.length() && text.charAt(after) == '\n') {
            after++;
        }
        return text.substring(0, b) + block + text.substring(after);
    }

    /** Writes section {@code name} of {@code file}; creates the file (and its directory) if needed. */
    public static void write(Path file, String title, String name, String body) throws IOException {
        String text = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "# " + title + "\n\n";
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        Files.writeString(file, replace(text, name, body), StandardCharsets.UTF_8);
    }
}
