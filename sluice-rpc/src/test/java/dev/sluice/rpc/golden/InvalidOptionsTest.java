package dev.sluice.rpc.golden;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.MethodDescriptorProto;
import com.google.protobuf.DescriptorProtos.MethodOptions;
import com.google.protobuf.DescriptorProtos.ServiceDescriptorProto;
import com.google.protobuf.UnknownFieldSet;
import com.google.protobuf.compiler.PluginProtos.CodeGeneratorRequest;
import com.google.protobuf.compiler.PluginProtos.CodeGeneratorResponse;
import dev.sluice.rpc.compiler.SluiceRpcCompiler;
import org.junit.jupiter.api.Test;

/**
 * A {@code (sluice.rpc.fire_and_forget)} that cannot be honoured is reported against the method in the response's
 * error (protoc prints it and fails), not turned into code. The requests are built by hand, as protoc would send
 * them: the option is field 50717 of the method options.
 */
class InvalidOptionsTest {

    private static final int FIRE_AND_FORGET = 50717;

    private static CodeGeneratorResponse generate(MethodDescriptorProto.Builder method) {
        MethodOptions options = MethodOptions.newBuilder()
            .setUnknownFields(UnknownFieldSet.newBuilder()
                .addField(FIRE_AND_FORGET, UnknownFieldSet.Field.newBuilder().addVarint(1).build())
                .build())
            .build();
        FileDescriptorProto empty = FileDescriptorProto.newBuilder()
            .setName("google/protobuf/empty.proto").setPackage("google.protobuf")
            .addMessageType(DescriptorProto.newBuilder().setName("Empty"))
            .build();
        FileDescriptorProto file = FileDescriptorProto.newBuilder()
            .setName("bad.proto").setPackage("bad").setSyntax("proto3")
            .addDependency("google/protobuf/empty.proto")
            .addMessageType(DescriptorProto.newBuilder().setName("Event"))
            .addService(ServiceDescriptorProto.newBuilder().setName("Events")
                .addMethod(method.setName("Publish").setInputType(".bad.Event").setOptions(options)))
            .build();
        return SluiceRpcCompiler.generate(CodeGeneratorRequest.newBuilder()
            .addProtoFile(empty).addProtoFile(file).addFileToGenerate("bad.proto").build());
    }

    @Test
    void fireAndForgetMustNotStream() {
        CodeGeneratorResponse response = generate(MethodDescriptorProto.newBuilder()
            .setOutputType(".google.protobuf.Empty").setClientStreaming(true));
        assertThat(response.getError()).isEqualTo("bad.Events/Publish: (sluice.rpc.fire_and_forget) needs a method"
            + " that streams neither requests nor responses");
        assertThat(response.getFileList()).isEmpty();
    }

    @Test
    void fireAndForgetMustReturnEmpty() {
        CodeGeneratorResponse response = generate(MethodDescriptorProto.newBuilder().setOutputType(".bad.Event"));
        assertThat(response.getError()).isEqualTo("bad.Events/Publish: (sluice.rpc.fire_and_forget) needs the"
            + " response type google.protobuf.Empty, not bad.Event");
    }

    @Test
    void aValidFireAndForgetGeneratesAMonoOfVoid() {
        CodeGeneratorResponse response = generate(MethodDescriptorProto.newBuilder()
            .setOutputType(".google.protobuf.Empty"));
        assertThat(response.hasError()).isFalse();
        assertThat(response.getFile(0).getContent()).contains("Mono<Void> publish(bad.Bad.Event request);");
    }
}
