package dev.sluice.rpc.compiler;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileOptions;
import com.google.protobuf.DescriptorProtos.ServiceDescriptorProto;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The Java names the generator derives, row by row, as protoc's Java generator would give them. */
class NamingTest {

    @ParameterizedTest
    @CsvSource({
        // proto method  | Java method   | descriptor constant
        "Say,            say,            SAY",
        "SayHello,       sayHello,       SAY_HELLO",
        "say_hello,      sayHello,       SAY_HELLO",
        "GetV2Thing,     getV2Thing,     GET_V2_THING",
        "HTTPGet,        hTTPGet,        HTTP_GET",
        "say_Hello,      sayHello,       SAY_HELLO",
        "New,            new_,           NEW",
    })
    void methodNames(String proto, String javaName, String constant) {
        assertThat(ServiceModel.javaMethodName(proto)).isEqualTo(javaName);
        assertThat(ServiceModel.upperSnake(proto)).isEqualTo(constant);
    }

    @ParameterizedTest
    @CsvSource({
        // file                  | outer class name
        "echo.proto,             Echo",
        "sluice/echo/v1/echo.proto, Echo",
        "my_service.proto,       MyService",
        "foo-bar.proto,          FooBar",
        "v2api.proto,            V2Api",
        "clash.proto,            ClashOuterClass",
        "nested_clash.proto,     NestedClashOuterClass",
    })
    void outerClassNames(String file, String outer) {
        FileDescriptorProto.Builder f = FileDescriptorProto.newBuilder().setName(file);
        if (file.equals("clash.proto")) {
            f.addService(ServiceDescriptorProto.newBuilder().setName("Clash"));
        }
        if (file.equals("nested_clash.proto")) {
            f.addMessageType(DescriptorProto.newBuilder().setName("Outer")
                .addNestedType(DescriptorProto.newBuilder().setName("NestedClash")));
        }
        assertThat(JavaNames.outerClassName(f.build())).isEqualTo(outer);
    }

    @ParameterizedTest
    @CsvSource({
        // java_multiple_files | java_package   | proto package | message class of .pkg.Outer.Inner
        "true,                  com.example,     pkg,            com.example.Outer.Inner",
        "false,                 com.example,     pkg,            com.example.Names.Outer.Inner",
        "false,                 '',              pkg,            pkg.Names.Outer.Inner",
    })
    void messageClasses(boolean multipleFiles, String javaPackage, String protoPackage, String javaClass) {
        FileOptions.Builder options = FileOptions.newBuilder().setJavaMultipleFiles(multipleFiles);
        if (!javaPackage.isEmpty()) {
            options.setJavaPackage(javaPackage);
        }
        FileDescriptorProto file = FileDescriptorProto.newBuilder()
            .setName("names.proto").setPackage(protoPackage).setOptions(options)
            .addMessageType(DescriptorProto.newBuilder().setName("Outer")
                .addNestedType(DescriptorProto.newBuilder().setName("Inner")))
            .build();
        assertThat(new JavaNames(List.of(file)).messageClass("." + protoPackage + ".Outer.Inner"))
            .isEqualTo(javaClass);
    }
}
