package dev.sluice.cli.files.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CancellationException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StagedFileTest {

    @TempDir
    Path dir;

    @Test
    void theTemporaryFileSitsBesideTheTargetAndTheCommitRenamesIt() throws IOException {
        Path target = dir.resolve("a.bin");
        StagedFile staged = new StagedFile(".pre-");

        Path temp = staged.create(target);

        assertThat(temp.getParent()).isEqualTo(dir);
        assertThat(temp.getFileName().toString()).matches("\\.pre-[0-9a-f]{16}\\.tmp");
        assertThat(temp).isEmptyFile();
        assertThat(target).doesNotExist();

        Files.writeString(temp, "content");
        staged.commit(true);

        assertThat(staged.committed()).isTrue();
        assertThat(target).hasContent("content");
        assertThat(files()).containsExactly("a.bin");
        assertThat(staged.abort()).as("an abort after the commit does nothing").isFalse();
        assertThat(target).hasContent("content");
    }

    @Test
    void aCommitReplacesAnExistingTarget() throws IOException {
        Path target = Files.writeString(dir.resolve("a.bin"), "old");
        StagedFile staged = new StagedFile(".pre-");
        Files.writeString(staged.create(target), "new");

        staged.commit(false);

        assertThat(target).hasContent("new");
        assertThat(files()).containsExactly("a.bin");
    }

    @Test
    void anAbortDeletesTheTemporaryFileLeavesTheTargetAndForbidsTheCommit() throws IOException {
        Path target = Files.writeString(dir.resolve("a.bin"), "old");
        StagedFile staged = new StagedFile(".pre-");
        Files.writeString(staged.create(target), "partial");

        assertThat(staged.abort()).isTrue();
        assertThat(staged.abort()).as("idempotent").isFalse();

        assertThatThrownBy(() -> staged.commit(false)).isInstanceOf(CancellationException.class);
        assertThat(files()).containsExactly("a.bin");
        assertThat(target).hasContent("old");
        assertThat(staged.committed()).isFalse();
    }

    @Test
    void anAbortBeforeTheCreateMakesTheCreateFailWithoutAFile() throws IOException {
        StagedFile staged = new StagedFile(".pre-");

        assertThat(staged.abort()).isFalse();

        assertThatThrownBy(() -> staged.create(dir.resolve("a.bin"))).isInstanceOf(CancellationException.class);
        assertThat(files()).isEmpty();
    }

    @Test
    void misuseIsReported() throws IOException {
        StagedFile staged = new StagedFile(".pre-");

        assertThatThrownBy(() -> staged.commit(false)).isInstanceOf(IllegalStateException.class)
            .hasMessage("commit in state NEW");
        staged.create(dir.resolve("a.bin"));
        assertThatThrownBy(() -> staged.create(dir.resolve("b.bin"))).isInstanceOf(IllegalStateException.class)
            .hasMessageStartingWith("create in state CREATED");
        staged.abort();
    }

    private java.util.List<String> files() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
