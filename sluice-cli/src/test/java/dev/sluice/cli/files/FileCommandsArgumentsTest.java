package dev.sluice.cli.files;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.CliRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Wrong arguments to {@code file-server}, {@code upload} and {@code download}: exit code 2, the condition quoted. */
class FileCommandsArgumentsTest {

    @TempDir
    Path dir;

    @Test
    void fileServer() throws IOException {
        Path file = Files.createFile(dir.resolve("file"));
        String d = dir.toString();

        String[][] rows = {
            // arguments..., expected text
            {"file-server", "--address", "127.0.0.1:0", "Missing required option: '--dir=DIR'"},
            {"file-server", "--dir", d, "Missing required option: '--address=ADDRESS'"},
            {"file-server", "--address", "nonsense", "--dir", d, "or unix:/path/to.sock, got 'nonsense'"},
            {"file-server", "--address", "127.0.0.1:0", "--dir", dir.resolve("nope").toString(),
                "--dir does not exist: '" + dir.resolve("nope") + "'"},
            {"file-server", "--address", "127.0.0.1:0", "--dir", file.toString(),
                "--dir is not a directory: '" + file + "'"},
            {"file-server", "--address", "127.0.0.1:0", "--dir", d, "--mtu", "10",
                "--mtu must be 0 (no fragmentation) or between 64 and 16777218, got 10\n"},
            {"file-server", "--address", "127.0.0.1:0", "--dir", d, "--drain-timeout", "PT-1S",
                "--drain-timeout must be >= 0, got -1000ms"},
            {"file-server", "--address", "127.0.0.1:0", "--dir", d, "--drain-timeout", "soon",
                "expected a duration such as 250ms, 1s, 2m or PT1S, got 'soon'"},
        };
        for (String[] row : rows) {
            assertExitTwo(row);
        }
    }

    @Test
    void upload() throws IOException {
        Path file = Files.writeString(dir.resolve("file"), "x");
        String f = file.toString();

        String[][] rows = {
            {"upload", f, "Missing required option: '--target=ADDRESS'"},
            {"upload", "--target", "127.0.0.1:1", "Missing required parameter: 'FILE'"},
            {"upload", "--target", "localhost", f, "or unix:/path/to.sock, got 'localhost'"},
            {"upload", "--target", "127.0.0.1:1", dir.resolve("nope").toString(),
                "FILE does not exist: '" + dir.resolve("nope") + "'"},
            {"upload", "--target", "127.0.0.1:1", dir.toString(), "FILE is not a regular file: '" + dir + "'"},
            {"upload", "--target", "127.0.0.1:1", f, "--name", "", "--name must not be empty"},
            {"upload", "--target", "127.0.0.1:1", f, "extra", "Unmatched argument at index 4: 'extra'"},
        };
        for (String[] row : rows) {
            assertExitTwo(row);
        }
    }

    @Test
    void download() {
        String noFileName = "NAME 'dir/' does not end in a file name to save under; give --output FILE";
        String[][] rows = {
            {"download", "a.bin", "Missing required option: '--target=ADDRESS'"},
            {"download", "--target", "127.0.0.1:1", "Missing required parameter: 'NAME'"},
            {"download", "--target", "127.0.0.1:1", "", "NAME must not be empty"},
            {"download", "--target", "127.0.0.1:1", "dir/", noFileName},
            {"download", "--target", "127.0.0.1:1", "..", "NAME '..' does not end in a file name"},
            {"download", "--target", "127.0.0.1:1", "a.bin", "--output", dir.resolve("no/such/dir/a").toString(),
                "the output's directory does not exist: '" + dir.resolve("no/such/dir") + "'"},
        };
        for (String[] row : rows) {
            assertExitTwo(row);
        }
    }

    @Test
    void helpListsTheCommandsAndExitsWithZero() {
        assertThat(CliRun.run("--help")).startsWith("0|").contains("file-server", "upload", "download");
        assertThat(CliRun.run("upload", "--help")).startsWith("0|").contains("--target", "--name", "FILE");
        assertThat(CliRun.run("download", "--help")).startsWith("0|").contains("--output", "NAME");
        assertThat(CliRun.run("file-server", "--help")).startsWith("0|").contains("--dir", "--mtu", "--fsync");
    }

    /** The last element is the expected text; the others are the arguments. */
    private static void assertExitTwo(String[] row) {
        String[] args = java.util.Arrays.copyOf(row, row.length - 1);
        assertThat(CliRun.run(args)).as(String.join(" ", args)).startsWith("2|").contains(row[row.length - 1]);
    }
}
