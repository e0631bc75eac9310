package dev.sluice.bench.throughput.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;

class ScratchDirTest {

    @Test
    void isPrivateAndGoesWithEverythingInIt() throws IOException {
        ScratchDir dir = ScratchDir.create("scratch-dir-test-");
        Path root = dir.path();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(root))).isEqualTo("rwx------");
        BenchPki.write(root);
        Files.createDirectories(root.resolve("a/b"));
        Files.writeString(root.resolve("a/b/c.sock"), "x");
        assertThat(root.resolve(BenchPki.SERVER_KEY)).exists();

        dir.close();
        assertThat(root).doesNotExist();
        dir.close(); // again: nothing left to do
        assertThat(root).doesNotExist();
    }
}
