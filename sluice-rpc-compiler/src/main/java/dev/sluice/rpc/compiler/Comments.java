package dev.sluice.rpc.compiler;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.SourceCodeInfo.Location;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The comments written next to a file's services and methods, from the source info protoc sends along, turned into
 * Javadoc-safe text so that they become the generated Javadoc (as users of protoc-generated code expect).
 *
 * <p>Immutable after construction; one per file.
 */
final class Comments {

    /** FileDescriptorProto.service. */
    private static final int FILE_SERVICE_FIELD = 6;
    /** ServiceDescriptorProto.method. */
    private static final int SERVICE_METHOD_FIELD = 2;

    private final Map<List<Integer>, String> byPath = new HashMap<>();

    Comments(FileDescriptorProto file) {
        for (Location location : file.getSourceCodeInfo().getLocationList()) {
            String text = (location.getLeadingComments() + "\n" + location.getTrailingComments()).strip();
            if (!text.isEmpty()) {
                byPath.put(location.getPathList(), text);
            }
        }
    }

    /** The service's comment as Javadoc-safe lines, or an empty list. */
    List<String> service(int serviceIndex) {
        return javadocLines(byPath.get(List.of(FILE_SERVICE_FIELD, serviceIndex)));
    }

    /** The method's comment as Javadoc-safe lines, or an empty list. */
    List<String> method(int serviceIndex, int methodIndex) {
        return javadocLines(byPath.get(List.of(FILE_SERVICE_FIELD, serviceIndex, SERVICE_METHOD_FIELD, methodIndex)));
    }

    /**
     * The text's lines, stripped, with what would end or confuse a Javadoc comment escaped: HTML specials,
     * {@code @} (a tag at the start of a line) and the comment terminator.
     */
    static List<String> javadocLines(String text) {
        if (text == null) {
            return List.of();
        }
        return text.lines().map(String::strip).map(Comments::escape).toList();
    }

    private static String escape(String line) {
        return line.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("@", "&#64;")
            .replace("*/", "*&#47;").replace("\\u", "&#92;u");
    }
}
