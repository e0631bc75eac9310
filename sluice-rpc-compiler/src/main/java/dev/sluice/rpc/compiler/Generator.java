package dev.sluice.rpc.compiler;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.compiler.PluginProtos.CodeGeneratorRequest;
import com.google.protobuf.compiler.PluginProtos.CodeGeneratorResponse;
import java.util.HashMap;
import java.util.Map;

/**
 * One run of the plugin: for every service of every file protoc asks for, the files {@link ServiceFiles} writes.
 * Generation is a pure function of the request, so the same request always gives byte-identical files (what the
 * golden-file tests rely on).
 */
final class Generator {

    /**
     * What the plugin declares it supports: proto3 {@code optional} fields need nothing from a service generator,
     * which never looks at fields.
     */
    static final long SUPPORTED_FEATURES = CodeGeneratorResponse.Feature.FEATURE_PROTO3_OPTIONAL_VALUE;

    private final CodeGeneratorRequest request;

    Generator(CodeGeneratorRequest request) {
        this.request = request;
    }

    CodeGeneratorResponse generate() {
        JavaNames names = new JavaNames(request.getProtoFileList());
        Map<String, FileDescriptorProto> byName = new HashMap<>();
        for (FileDescriptorProto file : request.getProtoFileList()) {
            byName.put(file.getName(), file);
        }
        CodeGeneratorResponse.Builder response = CodeGeneratorResponse.newBuilder()
            .setSupportedFeatures(SUPPORTED_FEATURES);
        for (String fileName : request.getFileToGenerateList()) {
            FileDescriptorProto file = byName.get(fileName);
            if (file == null) {
                throw new IllegalArgumentException("file to generate " + fileName + " is not in the request");
            }
            Comments comments = new Comments(file);
            for (int i = 0; i < file.getServiceCount(); i++) {
                ServiceFiles files = new ServiceFiles(ServiceModel.of(file, i, names, comments));
                add(response, files.path(files.interfaceName()), files.interfaceSource());
                add(response, files.path(files.rpcName()), files.rpcSource());
                add(response, files.path(files.clientName()), files.clientSource());
            }
        }
        return response.build();
    }

    private static void add(CodeGeneratorResponse.Builder response, String path, String content) {
        response.addFile(CodeGeneratorResponse.File.newBuilder().setName(path).setContent(content));
    }
}
