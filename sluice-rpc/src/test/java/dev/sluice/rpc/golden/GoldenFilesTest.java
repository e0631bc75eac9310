package dev.sluice.rpc.golden;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.compiler.PluginProtos.CodeGeneratorRequest;
import com.google.protobuf.compiler.PluginProtos.CodeGeneratorResponse;
import dev.sluice.rpc.compiler.SluiceRpcCompiler;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The generator's output for the test protos (every kind of method, nested and imported messages,
 * {@code java_multiple_files} on and off, a package-less file) matches the files under {@code src/test/golden},
 * compiles without a single warning, and is what protoc itself got from the plugin during the build.
 *
 * <p>The input is the descriptor set the build writes for {@code src/test/proto} (with imports and comments). After
 * a deliberate change to the generator, rewrite the golden files with {@code -Dsluice.golden.update=true}.
 */
class GoldenFilesTest {

    private static final Path GOLDEN = Path.of("src/test/golden");
    private static final Path DESCRIPTOR_SETS = Path.of("target/generated-test-resources/protobuf/descriptor-sets");
    private static final Path PROTOC_OUTPUT = Path.of("target/generated-test-sources/protobuf/java");
    private static final List<String> PROTOS = List.of("golden/v1/kinds.proto", "golden/v1/shapes.proto",
        "nopackage.proto");

    private static FileDescriptorSet descriptors() throws IOException {
        try (Stream<Path> files = Files.list(DESCRIPTOR_SETS)) {
            Path set = files.filter(p -> p.toString().endsWith(".protobin")).findFirst().orElseThrow();
            return FileDescriptorSet.parseFrom(Files.readAllBytes(set));
        }
    }

    /** What the plugin generates for {@code protos}: path to content, in path order. */
    private static Map<String, String> generate(List<String> protos) throws IOException {
        CodeGeneratorRequest request = CodeGeneratorRequest.newBuilder()
            .addAllProtoFile(descriptors().getFileList())
            .addAllFileToGenerate(protos)
            .build();
        CodeGeneratorResponse response = SluiceRpcCompiler.generate(request);
        assertThat(response.hasError()).as(response.getError()).isFalse();
        Map<String, String> files = new TreeMap<>();
        for (CodeGeneratorResponse.File f : response.getFileList()) {
            files.put(f.getName(), f.getContent());
        }
        return files;
    }

    @ParameterizedTest
    @ValueSource(strings = {"golden/v1/kinds.proto", "golden/v1/shapes.proto", "nopackage.proto"})
    void generatedFilesMatchTheGoldenCopies(String proto) throws IOException {
        Map<String, String> generated = generate(List.of(proto));
        assertThat(generated).hasSize(3);
        boolean update = Boolean.getBoolean("sluice.golden.update");
        for (Map.Entry<String, String> file : generated.entrySet()) {
            Path golden = GOLDEN.resolve(file.getKey() + ".golden");
            if (update) {
                Files.createDirectories(golden.getParent());
                Files.writeString(golden, file.getValue());
            }
            assertThat(golden).exists();
            assertThat(file.getValue()).as(file.getKey()).isEqualTo(Files.readString(golden));
        }
    }

    @Test
    void protocRanThePluginToTheSameFiles() throws IOException {
        for (Map.Entry<String, String> file : generate(PROTOS).entrySet()) {
            assertThat(Files.readString(PROTOC_OUTPUT.resolve(file.getKey()))).as(file.getKey())
                .isEqualTo(file.getValue());
        }
    }

    @Test
    void generatedCodeCompilesWithoutWarnings(@TempDir Path out) throws IOException {
        Map<String, String> generated = generate(PROTOS);
        Path sources = out.resolve("src");
        List<Path> files = new ArrayList<>();
        for (Map.Entry<String, String> file : generated.entrySet()) {
            Path source = sources.resolve(file.getKey());
            Files.createDirectories(source.getParent());
            Files.writeString(source, file.getValue());
            files.add(source);
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        StringWriter output = new StringWriter();
        try (StandardJavaFileManager fm = javac.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
            Path classes = Files.createDirectories(out.resolve("classes"));
            List<String> options = List.of("--release", "17", "-Xlint:all", "-Werror", "-Xdoclint:all/protected",
                "-classpath", System.getProperty("java.class.path"), "-d", classes.toString());
            boolean ok = javac.getTask(output, fm, diagnostics, options, null, fm.getJavaFileObjectsFromPaths(files))
                .call();
            assertThat(diagnostics.getDiagnostics()).as(output.toString()).isEmpty();
            assertThat(ok).isTrue();
        }
    }

    @Test
    void theProtocolRoundTripsThroughStandardStreams() throws IOException {
        CodeGeneratorRequest request = CodeGeneratorRequest.newBuilder()
            .addAllProtoFile(descriptors().getFileList())
            .addFileToGenerate("nopackage.proto")
            .build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SluiceRpcCompiler.run(new ByteArrayInputStream(request.toByteArray()), out);
        CodeGeneratorResponse response = CodeGeneratorResponse.parseFrom(out.toByteArray());
        assertThat(response.getFileList()).extracting(CodeGeneratorResponse.File::getName)
            .containsExactly("BareService.java", "BareRpc.java", "BareClient.java");
        assertThat(response.getSupportedFeatures())
            .isEqualTo(CodeGeneratorResponse.Feature.FEATURE_PROTO3_OPTIONAL_VALUE);
    }
}
