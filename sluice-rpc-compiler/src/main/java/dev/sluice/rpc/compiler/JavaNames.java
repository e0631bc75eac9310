package dev.sluice.rpc.compiler;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Java names protoc's own Java generator gives to a file's classes: the package ({@code java_package}, else the
 * proto package, else the default package), the outer class ({@code java_outer_classname}, else the file name in
 * camel case, plus {@code OuterClass} when a type of the file has that name) and each message's class, nested in
 * the outer class unless {@code java_multiple_files} is set.
 *
 * <p>Built once per request over every file protoc sent (the files to generate and all their imports), so that a
 * method may use a message from any imported file. Not thread-safe; immutable after construction.
 */
final class JavaNames {

    /** Proto full names with a leading dot, as method descriptors spell them, to Java class names. */
    private final Map<String, String> messageClasses = new HashMap<>();

    JavaNames(List<FileDescriptorProto> files) {
        for (FileDescriptorProto file : files) {
            String javaPackage = javaPackage(file);
            String outer = file.getOptions().getJavaMultipleFiles() ? null : outerClassName(file);
            String javaPrefix = qualify(javaPackage, outer);
            String protoPrefix = file.getPackage().isEmpty() ? "." : "." + file.getPackage() + ".";
            for (DescriptorProto message : file.getMessageTypeList()) {
                addMessage(message, protoPrefix, javaPrefix);
            }
        }
    }

    private void addMessage(DescriptorProto message, String protoPrefix, String javaPrefix) {
        String protoName = protoPrefix + message.getName();
        String javaName = qualify(javaPrefix, message.getName());
        messageClasses.put(protoName, javaName);
        for (DescriptorProto nested : message.getNestedTypeList()) {
            addMessage(nested, protoName + ".", javaName);
        }
    }

    /**
     * The Java class of a message, from its proto full name with the leading dot ({@code .pkg.Outer.Inner}).
     *
     * @throws IllegalArgumentException if the request did not describe that message
     */
    String messageClass(String protoFullName) {
        String javaName = messageClasses.get(protoFullName);
        if (javaName == null) {
            throw new IllegalArgumentException("message type " + protoFullName + " is not in the request's files");
        }
        return javaName;
    }

    /** The file's Java package; empty for the default package. */
    static String javaPackage(FileDescriptorProto file) {
        return file.getOptions().hasJavaPackage() ? file.getOptions().getJavaPackage() : file.getPackage();
    }

    /** The simple name of the file's outer class, as protoc's Java generator chooses it. */
    static String outerClassName(FileDescriptorProto file) {
        if (file.getOptions().hasJavaOuterClassname()) {
            return file.getOptions().getJavaOuterClassname();
        }
        String name = file.getName();
        int slash = name.lastIndexOf('/');
        String base = name.substring(slash + 1);
        if (base.endsWith(".proto")) {
            base = base.substring(0, base.length() - ".proto".length());
        }
        String camel = camelCase(base, true);
        return declaresType(file, camel) ? camel + "OuterClass" : camel;
    }

    /**
     * Protoc's camel casing of identifiers: letters after a non-letter (underscore, digit, dash) become upper
     * case, other characters that are not letters or digits are dropped.
     */
    static String camelCase(String s, boolean capitalizeFirst) {
        StringBuilder out = new StringBuilder(s.length());
        boolean capitalizeNext = capitalizeFirst;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 'a' && c <= 'z') {
                out.append(capitalizeNext ? Character.toUpperCase(c) : c);
                capitalizeNext = false;
            } else if (c >= 'A' && c <= 'Z') {
                out.append(i == 0 && !capitalizeFirst ? Character.toLowerCase(c) : c);
                capitalizeNext = false;
            } else if (c >= '0' && c <= '9') {
                out.append(c);
                capitalizeNext = true;
            } else {
                capitalizeNext = true;
            }
        }
        return out.toString();
    }

    private static boolean declaresType(FileDescriptorProto file, String simpleName) {
        for (EnumDescriptorProto e : file.getEnumTypeList()) {
            if (e.getName().equals(simpleName)) {
                return true;
            }
        }
        for (DescriptorProto m : file.getMessageTypeList()) {
            if (declaresType(m, simpleName)) {
                return true;
            }
        }
        for (var service : file.getServiceList()) {
            if (service.getName().equals(simpleName)) {
                return true;
            }
        }
        return false;
    }

    private static boolean declaresType(DescriptorProto message, String simpleName) {
        if (message.getName().equals(simpleName)) {
            return true;
        }
        for (EnumDescriptorProto e : message.getEnumTypeList()) {
            if (e.getName().equals(simpleName)) {
                return true;
            }
        }
        for (DescriptorProto nested : message.getNestedTypeList()) {
            if (declaresType(nested, simpleName)) {
                return true;
            }
        }
        return false;
    }

    /** {@code prefix.name}, or {@code name} alone when the prefix is empty or null. */
    static String qualify(String prefix, String name) {
        if (name == null) {
            return prefix;
        }
        return prefix == null || prefix.isEmpty() ? name : prefix + "." + name;
    }
}
