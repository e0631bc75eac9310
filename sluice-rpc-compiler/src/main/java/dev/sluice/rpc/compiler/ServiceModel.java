package dev.sluice.rpc.compiler;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileOptions;
import com.google.protobuf.DescriptorProtos.MethodDescriptorProto;
import com.google.protobuf.DescriptorProtos.ServiceDescriptorProto;
import com.google.protobuf.UnknownFieldSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One {@code service} as the writers need it: names resolved to Java, kinds decided, comments attached. Building
 * it checks what protoc cannot: that fire-and-forget methods are unary and answer {@code google.protobuf.Empty}.
 */
record ServiceModel(String protoFile, String javaPackage, String protoName, String fullName, List<String> comment,
                    List<Method> methods, String descriptorSource) {

    /** The field number of {@code (sluice.rpc.fire_and_forget)} in {@code sluice/rpc/options.proto}. */
    static final int FIRE_AND_FORGET_OPTION = 50717;
    private static final String EMPTY = ".google.protobuf.Empty";
    private static final Set<String> JAVA_KEYWORDS = Set.of("abstract", "assert", "boolean", "break", "byte",
        "case", "catch", "char", "class", "const", "continue", "default", "do", "double", "else", "enum", "extends",
        "final", "finally", "float", "for", "goto", "if", "implements", "import", "instanceof", "int", "interface",
        "long", "native", "new", "package", "private", "protected", "public", "return", "short", "static",
        "strictfp", "super", "switch", "synchronized", "this", "throw", "throws", "transient", "try", "void",
        "volatile", "while", "true", "false", "null", "var", "record", "yield", "sealed", "permits");

    /**
     * One method.
     *
     * @param protoName  as in the .proto, e.g. {@code SayHello}
     * @param fullName   the route, {@code package.Service/Method}
     * @param javaName   the Java method, e.g. {@code sayHello}
     * @param constant   the name of its descriptor constant, e.g. {@code METHOD_SAY_HELLO}
     */
    record Method(String protoName, String fullName, String javaName, String constant, MethodKind kind,
                  String requestClass, String responseClass, boolean deprecated, List<String> comment) {
    }

    static ServiceModel of(FileDescriptorProto file, int serviceIndex, JavaNames names, Comments comments) {
        ServiceDescriptorProto service = file.getService(serviceIndex);
        String fullName = file.getPackage().isEmpty() ? service.getName() : file.getPackage() + "." + service.getName();
        List<Method> methods = new ArrayList<>();
        for (int i = 0; i < service.getMethodCount(); i++) {
            MethodDescriptorProto m = service.getMethod(i);
            MethodKind kind = kind(fullName, m);
            methods.add(new Method(m.getName(), fullName + "/" + m.getName(), javaMethodName(m.getName()),
                "METHOD_" + upperSnake(m.getName()), kind, names.messageClass(m.getInputType()),
                names.messageClass(m.getOutputType()), m.getOptions().getDeprecated(),
                comments.method(serviceIndex, i)));
        }
        return new ServiceModel(file.getName(), JavaNames.javaPackage(file), service.getName(), fullName,
            comments.service(serviceIndex), List.copyOf(methods), descriptorSource(file, serviceIndex));
    }

    /**
     * Java that reads the service's descriptor from the file's outer class, or null for the lite runtime, whose
     * classes carry no descriptors.
     */
    private static String descriptorSource(FileDescriptorProto file, int serviceIndex) {
        if (file.getOptions().getOptimizeFor() == FileOptions.OptimizeMode.LITE_RUNTIME) {
            return null;
        }
        String javaPackage = JavaNames.javaPackage(file);
        String outer = JavaNames.outerClassName(file);
        return (javaPackage.isEmpty() ? outer : javaPackage + "." + outer) + ".getDescriptor().getServices().get("
            + serviceIndex + ")";
    }

    private static MethodKind kind(String serviceName, MethodDescriptorProto m) {
        boolean fireAndForget = fireAndForgetOption(m);
        if (fireAndForget) {
            if (m.getClientStreaming() || m.getServerStreaming()) {
                throw new IllegalArgumentException(serviceName + "/" + m.getName()
                    + ": (sluice.rpc.fire_and_forget) needs a method that streams neither requests nor responses");
            }
            if (!EMPTY.equals(m.getOutputType())) {
                throw new IllegalArgumentException(serviceName + "/" + m.getName()
                    + ": (sluice.rpc.fire_and_forget) needs the response type google.protobuf.Empty, not "
                    + m.getOutputType().substring(1));
            }
            return MethodKind.FIRE_AND_FORGET;
        }
        if (m.getClientStreaming()) {
            return m.getServerStreaming() ? MethodKind.BIDI_STREAMING : MethodKind.CLIENT_STREAMING;
        }
        return m.getServerStreaming() ? MethodKind.SERVER_STREAMING : MethodKind.UNARY;
    }

    /**
     * Whether the method sets {@code (sluice.rpc.fire_and_forget) = true}. Read from the options' unknown fields by
     * number, so that the plugin needs no generated code for {@code options.proto}.
     */
    private static boolean fireAndForgetOption(MethodDescriptorProto m) {
        UnknownFieldSet.Field field = m.getOptions().getUnknownFields().getField(FIRE_AND_FORGET_OPTION);
        List<Long> values = field.getVarintList();
        return !values.isEmpty() && values.get(values.size() - 1) != 0;
    }

    /** {@code SayHello} to {@code sayHello}; a Java keyword gets an underscore appended. */
    static String javaMethodName(String protoName) {
        String name = JavaNames.camelCase(protoName, false);
        return JAVA_KEYWORDS.contains(name) ? name + "_" : name;
    }

    /**
     * {@code SayHello} to {@code SAY_HELLO}: a word starts at an upper-case letter after a lower-case letter or a
     * digit, or at the last capital of an acronym ({@code HTTPGet} to {@code HTTP_GET}).
     */
    static String upperSnake(String protoName) {
        StringBuilder out = new StringBuilder(protoName.length() + 4);
        for (int i = 0; i < protoName.length(); i++) {
            char c = protoName.charAt(i);
            char previous = i > 0 ? protoName.charAt(i - 1) : '_';
            boolean boundary = Character.isUpperCase(c) && Character.isLetterOrDigit(previous)
                && (!Character.isUpperCase(previous)
                    || i + 1 < protoName.length() && Character.isLowerCase(protoName.charAt(i + 1)));
            if (boundary) {
                out.append('_');
            }
            out.append(Character.isLetterOrDigit(c) ? Character.toUpperCase(c) : '_');
        }
        return out.toString();
    }
}
