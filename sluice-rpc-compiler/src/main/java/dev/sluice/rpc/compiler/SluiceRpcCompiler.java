package dev.sluice.rpc.compiler;

import com.google.protobuf.compiler.PluginProtos.CodeGeneratorRequest;
import com.google.protobuf.compiler.PluginProtos.CodeGeneratorResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The protoc plugin's entry point: protoc writes a {@code CodeGeneratorRequest} to standard input and reads the
 * {@code CodeGeneratorResponse} from standard output. A problem in the {@code .proto} (say, a fire-and-forget
 * method that streams) goes back in the response's {@code error} field, which protoc prints against the file;
 * only an unreadable request makes the process exit non-zero.
 */
public final class SluiceRpcCompiler {

    private SluiceRpcCompiler() {
    }

    /** Runs the plugin over standard input and output. */
    public static void main(String[] args) throws IOException {
        run(System.in, System.out);
    }

    /** Reads one request from {@code in} and writes its response to {@code out}. */
    public static void run(InputStream in, OutputStream out) throws IOException {
        CodeGeneratorRequest request = CodeGeneratorRequest.parseFrom(in);
        CodeGeneratorResponse response = generate(request);
        response.writeTo(out);
        out.flush();
    }

    /** The files generated for {@code request}, or a response carrying the error that prevented them. */
    public static CodeGeneratorResponse generate(CodeGeneratorRequest request) {
        try {
            return new Generator(request).generate();
        } catch (IllegalArgumentException e) {
            return CodeGeneratorResponse.newBuilder()
                .setSupportedFeatures(Generator.SUPPORTED_FEATURES)
                .setError(e.getMessage())
                .build();
        }
    }
}
