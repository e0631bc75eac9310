package dev.sluice.cli.files.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.exceptions.RejectedException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServedDirectoryTest {

    @TempDir
    Path root;

    @TempDir
    Path outside;

    /** Removes the links, so that JUnit does not warn about links to outside its directory when it cleans up. */
    @AfterEach
    void deleteLinks() throws IOException {
        for (Path dir : new Path[] {root, outside}) {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path p : files.filter(Files::isSymbolicLink).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    @Test
    void nameRules() {
        Object[][] rows = {
            // name, refusal (null = accepted)
            {"a.bin", null},
            {"dir/sub/a.bin", null},
            {"...", null},                      // only '.' and '..' are special
            {"..a/b..", null},
            {"a b/ü €.txt", null},
            {".hidden", null},
            {".sluice-upload", null},           // the prefix needs its trailing '-'
            {"dir/.sluice-upload-x/a", null},   // only the last segment is checked
            {"", "the name is empty"},
            {"..", "'..' is not allowed in a name"},
            {"../a", "'..' is not allowed in a name"},
            {"a/../b", "'..' is not allowed in a name"},
            {"a/..", "'..' is not allowed in a name"},
            {".", "'.' is not allowed in a name"},
            {"./a", "'.' is not allowed in a name"},
            {"/etc/passwd", "absolute names are not allowed; give a path relative to the served directory"},
            {"/", "absolute names are not allowed; give a path relative to the served directory"},
            {"a//b", "a name cannot contain an empty segment ('//' or a trailing '/')"},
            {"a/", "a name cannot contain an empty segment ('//' or a trailing '/')"},
            {"a\\..\\b", "a name cannot contain a backslash; separate segments with '/'"},
            {"a\0b", "a name cannot contain NUL"},
            {".sluice-upload-123.tmp", "names starting with '.sluice-upload-' are the server's temporary files"},
            {"d/.sluice-upload-1", "names starting with '.sluice-upload-' are the server's temporary files"},
        };
        for (Object[] row : rows) {
            assertThat(ServedDirectory.refusal((String) row[0])).as("%s", row[0]).isEqualTo(row[1]);
        }
    }

    @Test
    void checkQuotesTheNameInTheRejection() {
        assertThatThrownBy(() -> ServedDirectory.check("../x")).isInstanceOf(RejectedException.class)
            .hasMessage("refused '../x': '..' is not allowed in a name");
    }

    @Test
    void quotesEscapeControlCharactersAndCutLongNames() {
        assertThat(ServedDirectory.quote("a.bin")).isEqualTo("'a.bin'");
        assertThat(ServedDirectory.quote("a\nINFO forged\r\t")).isEqualTo("'a\\u000aINFO forged\\u000d\\u0009'");
        assertThat(ServedDirectory.quote("x".repeat(201))).isEqualTo("'" + "x".repeat(200) + "'... (201 characters)");
    }

    @Test
    void theDirectoryMustExistAndBeOne() throws IOException {
        Path file = Files.createFile(root.resolve("f"));

        assertThatThrownBy(() -> new ServedDirectory(root.resolve("missing"))).isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> new ServedDirectory(file)).isInstanceOf(NotDirectoryException.class);
        Path link = Files.createSymbolicLink(outside.resolve("link"), root);
        assertThat(new ServedDirectory(link).root()).isEqualTo(root.toRealPath());
    }

    @Test
    void writingCreatesMissingDirectoriesInside() throws IOException {
        ServedDirectory dir = new ServedDirectory(root);

        Path p = dir.resolveForWriting("a/b/c.bin");

        assertThat(p).isEqualTo(root.toRealPath().resolve("a/b/c.bin"));
        assertThat(root.resolve("a/b")).isDirectory();
        assertThat(p).doesNotExist();
    }

    @Test
    void writingFollowsLinksThatStayInsideAndRefusesTheRest() throws IOException {
        ServedDirectory dir = new ServedDirectory(root);
        Path real = root.toRealPath();
        Files.createDirectory(root.resolve("real"));
        Files.createSymbolicLink(root.resolve("inner"), root.resolve("real"));
        Files.createSymbolicLink(root.resolve("out"), outside);
        Files.createSymbolicLink(root.resolve("outfile"), outside.resolve("f"));
        Files.writeString(outside.resolve("f"), "outside");
        Files.createSymbolicLink(root.resolve("broken"), root.resolve("nowhere"));
        Files.writeString(root.resolve("real/x"), "inside");
        Files.createSymbolicLink(root.resolve("innerfile"), root.resolve("real/x"));
        Files.writeString(root.resolve("file"), "a file");

        assertThat(dir.resolveForWriting("inner/x.bin")).isEqualTo(real.resolve("real/x.bin"));
        assertThat(dir.resolveForWriting("innerfile")).as("replaced by the rename")
            .isEqualTo(real.resolve("innerfile"));
        Object[][] refused = {
            {"out/x.bin", "it leads out of the served directory through a symbolic link"},
            {"out/new/dir/x.bin", "it leads out of the served directory through a symbolic link"},
            {"outfile", "it is a symbolic link leading out of the served directory"},
            {"broken", "it is a broken symbolic link"},
            {"broken/x", "'broken' is a broken symbolic link"},
            {"real", "it is a directory"},
            {"file/x", "'file' is not a directory"},
        };
        for (Object[] row : refused) {
            assertThatThrownBy(() -> dir.resolveForWriting((String) row[0])).as("%s", row[0])
                .isInstanceOf(RejectedException.class)
                .hasMessage("refused '" + row[0] + "': " + row[1]);
        }
        assertThat(outside.resolve("new")).as("no directory created outside").doesNotExist();
        assertThat(outside.resolve("f")).hasContent("outside");
    }

    @Test
    void readingNeedsARegularFileInside() throws IOException {
        ServedDirectory dir = new ServedDirectory(root);
        Path real = root.toRealPath();
        Files.createDirectories(root.resolve("d"));
        Files.writeString(root.resolve("d/f"), "inside");
        Files.writeString(outside.resolve("f"), "outside");
        Files.createSymbolicLink(root.resolve("in"), root.resolve("d/f"));
        Files.createSymbolicLink(root.resolve("out"), outside.resolve("f"));
        Files.createSymbolicLink(root.resolve("outdir"), outside);

        assertThat(dir.resolveForReading("d/f")).isEqualTo(real.resolve("d/f"));
        assertThat(dir.resolveForReading("in")).isEqualTo(real.resolve("d/f"));
        assertThatThrownBy(() -> dir.resolveForReading("out")).isInstanceOf(RejectedException.class)
            .hasMessage("refused 'out': it leads out of the served directory through a symbolic link");
        assertThatThrownBy(() -> dir.resolveForReading("outdir/f")).isInstanceOf(RejectedException.class)
            .hasMessage("refused 'outdir/f': it leads out of the served directory through a symbolic link");
        assertThatThrownBy(() -> dir.resolveForReading("d")).isInstanceOf(RejectedException.class)
            .hasMessage("refused 'd': it is not a regular file");
        assertThatThrownBy(() -> dir.resolveForReading("d/missing")).isInstanceOf(NoSuchFileException.class)
            .hasMessage("d/missing");
        assertThatThrownBy(() -> dir.resolveForReading("../f")).isInstanceOf(RejectedException.class)
            .hasMessage("refused '../f': '..' is not allowed in a name");
    }
}
