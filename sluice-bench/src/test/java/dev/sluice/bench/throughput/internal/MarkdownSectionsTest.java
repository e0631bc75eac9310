package dev.sluice.bench.throughput.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MarkdownSectionsTest {

    @Test
    void appendsTheSectionWhenTheFileHasNone() {
        assertThat(MarkdownSections.replace("# B\n\nintro\n", "t", "body"))
            .isEqualTo("# B\n\nintro\n\n<!-- begin t -->\nbody\n<!-- end t -->\n");
    }

    @Test
    void replacesOnlyItsOwnSectionAndKeepsTheRest() {
        String text = "# B\n\n<!-- begin a -->\nold a\n<!-- end a -->\nbetween\n<!-- begin t -->\nold\n"
            + "<!-- end t -->\nafter\n";
        assertThat(MarkdownSections.replace(text, "t", "new\n"))
            .isEqualTo("# B\n\n<!-- begin a -->\nold a\n<!-- end a -->\nbetween\n<!-- begin t -->\nnew\n"
                + "<!-- end t -->\nafter\n");
    }

    @Test
    void writingTwiceLeavesOneSection(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("docs/benchmarks.md");
        MarkdownSections.write(file, "Benchmarks", "t", "first");
        MarkdownSections.write(file, "Benchmarks", "t", "second");
        assertThat(Files.readString(file))
            .isEqualTo("# Benchmarks\n\n<!-- begin t -->\nsecond\n<!-- end t -->\n");
    }
}
