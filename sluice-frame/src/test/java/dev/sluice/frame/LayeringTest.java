package dev.sluice.frame;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The module's layering: API classes may use {@code internal} machinery and the machinery may use API constants,
 * but never both ways between the same two classes, so that either side can change without dragging the other.
 *
 * <p>Read from the sources, not the class files: the compiler inlines constants such as
 * {@link FrameHeader#MAX_FRAME_LENGTH}, so a class file can hide a dependency its source has. A class in another
 * package can only be named by an import or a qualified name, and both are qualified names in the text.
 */
class LayeringTest {

    private static final Path SOURCES = Paths.get("src/main/java");
    private static final Pattern QUALIFIED = Pattern.compile("\\bdev\\.sluice\\.frame(?:\\.[a-z]\\w*)*\\.[A-Z]\\w*");
    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);

    @Test
    void noApiClassAndInternalClassReferToEachOther() {
        Map<String, Set<String>> references = references();
        assertThat(references).as("classes found under %s", SOURCES.toAbsolutePath()).isNotEmpty();

        List<String> twoWay = new ArrayList<>();
        references.forEach((from, targets) -> {
            for (String to : targets) {
                boolean crossesLayers = isInternal(from) != isInternal(to);
                if (crossesLayers && isInternal(from) && references.getOrDefault(to, Set.of()).contains(from)) {
                    twoWay.add(from + " <-> " + to);
                }
            }
        });

        assertThat(twoWay).as("API and internal classes that refer to each other").isEmpty();
    }

    private static boolean isInternal(String className) {
        return className.contains(".internal.");
    }

    /** Each top-level class of the module to the classes of this module in other packages that it names. */
    private static Map<String, Set<String>> references() {
        Map<String, Set<String>> out = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java"))::iterator) {
                String text = Files.readString(file);
                Matcher pkg = PACKAGE.matcher(text);
                if (!pkg.find() || file.getFileName().toString().equals("package-info.java")) {
                    continue;
                }
                String self = pkg.group(1) + "." + file.getFileName().toString().replace(".java", "");
                Set<String> targets = new TreeSet<>();
                Matcher m = QUALIFIED.matcher(text.substring(pkg.end()));
                while (m.find()) {
                    String name = m.group();
                    if (!name.substring(0, name.lastIndexOf('.')).equals(pkg.group(1))) {
                        targets.add(name);
                    }
                }
                out.put(self, targets);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
