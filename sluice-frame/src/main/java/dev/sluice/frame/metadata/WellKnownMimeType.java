package dev.sluice.frame.metadata;

import java.util.HashMap;
import java.util.Map;

/**
 * The MIME types that composite metadata can name with a 7-bit id instead of a string (the "well-known MIME types"
 * extension): 0x00..0x2A for common media types and 0x7A..0x7F for RSocket's own metadata formats.
 *
 * <p>rsocket-java 1.1.5 stops at 0x28: it decodes 0x29 ({@link #APPLICATION_X_CAPNP}) and 0x2A
 * ({@link #APPLICATION_X_FLATBUFFERS}) as an unknown reserved id with a null MIME type. Those two report
 * {@link #knownToRsocketJava()} false, and {@link CompositeMetadata#addEntry(io.netty.buffer.ByteBuf, String,
 * io.netty.buffer.ByteBuf)} writes them as strings.
 *
 * <p>Lookups allocate nothing; immutable and thread-safe.
 */
public enum WellKnownMimeType {
    APPLICATION_AVRO(0x00, "application/avro"),
    APPLICATION_CBOR(0x01, "application/cbor"),
    APPLICATION_GRAPHQL(0x02, "application/graphql"),
    APPLICATION_GZIP(0x03, "application/gzip"),
    APPLICATION_JAVASCRIPT(0x04, "application/javascript"),
    APPLICATION_JSON(0x05, "application/json"),
    APPLICATION_OCTET_STREAM(0x06, "application/octet-stream"),
    APPLICATION_PDF(0x07, "application/pdf"),
    APPLICATION_THRIFT_BINARY(0x08, "application/vnd.apache.thrift.binary"),
    APPLICATION_PROTOBUF(0x09, "application/vnd.google.protobuf"),
    APPLICATION_XML(0x0A, "application/xml"),
    APPLICATION_ZIP(0x0B, "application/zip"),
    AUDIO_AAC(0x0C, "audio/aac"),
    AUDIO_MP3(0x0D, "audio/mp3"),
    AUDIO_MP4(0x0E, "audio/mp4"),
    AUDIO_MPEG3(0x0F, "audio/mpeg3"),
    AUDIO_MPEG(0x10, "audio/mpeg"),
    AUDIO_OGG(0x11, "audio/ogg"),
    AUDIO_OPUS(0x12, "audio/opus"),
    AUDIO_VORBIS(0x13, "audio/vorbis"),
    IMAGE_BMP(0x14, "image/bmp"),
    IMAGE_GIF(0x15, "image/gif"),
    IMAGE_HEIC_SEQUENCE(0x16, "image/heic-sequence"),
    IMAGE_HEIC(0x17, "image/heic"),
    IMAGE_HEIF_SEQUENCE(0x18, "image/heif-sequence"),
    IMAGE_HEIF(0x19, "image/heif"),
    IMAGE_JPEG(0x1A, "image/jpeg"),
    IMAGE_PNG(0x1B, "image/png"),
    IMAGE_TIFF(0x1C, "image/tiff"),
    MULTIPART_MIXED(0x1D, "multipart/mixed"),
    TEXT_CSS(0x1E, "text/css"),
    TEXT_CSV(0x1F, "text/csv"),
    TEXT_HTML(0x20, "text/html"),
    TEXT_PLAIN(0x21, "text/plain"),
    TEXT_XML(0x22, "text/xml"),
    VIDEO_H264(0x23, "video/H264"),
    VIDEO_H265(0x24, "video/H265"),
    VIDEO_VP8(0x25, "video/VP8"),
    APPLICATION_X_HESSIAN(0x26, "application/x-hessian"),
    APPLICATION_X_JAVA_OBJECT(0x27, "application/x-java-object"),
    APPLICATION_CLOUDEVENTS_JSON(0x28, "application/cloudevents+json"),
    APPLICATION_X_CAPNP(0x29, "application/x-capnp"),
    APPLICATION_X_FLATBUFFERS(0x2A, "application/x-flatbuffers"),
    MESSAGE_RSOCKET_MIME_TYPE(0x7A, "message/x.rsocket.mime-type.v0"),
    MESSAGE_RSOCKET_ACCEPT_MIME_TYPES(0x7B, "message/x.rsocket.accept-mime-types.v0"),
    MESSAGE_RSOCKET_AUTHENTICATION(0x7C, "message/x.rsocket.authentication.v0"),
    MESSAGE_RSOCKET_TRACING_ZIPKIN(0x7D, "message/x.rsocket.tracing-zipkin.v0"),
    MESSAGE_RSOCKET_ROUTING(0x7E, "message/x.rsocket.routing.v0"),
    MESSAGE_RSOCKET_COMPOSITE_METADATA(0x7F, "message/x.rsocket.composite-metadata.v0");

    /** The largest id a 7-bit field can carry. */
    public static final int MAX_ID = 0x7F;

    /** The last id rsocket-java 1.1.5 knows in the media-type block (0x28); it also knows 0x7A..0x7F. */
    private static final int LAST_ID_KNOWN_TO_RSOCKET_JAVA = 0x28;

    private static final WellKnownMimeType[] BY_ID = new WellKnownMimeType[MAX_ID + 1];
    private static final Map<String, WellKnownMimeType> BY_STRING = new HashMap<>();

    static {
        for (WellKnownMimeType t : values()) {
            BY_ID[t.id] = t;
            BY_STRING.put(t.string, t);
        }
    }

    private final int id;
    private final String string;

    WellKnownMimeType(int id, String string) {
        this.id = id;
        this.string = string;
    }

    /** The 7-bit id, 0..127. */
    public int id() {
        return id;
    }

    /** The MIME type string, e.g. {@code "message/x.rsocket.routing.v0"}. */
    public String string() {
        return string;
    }

    /** Whether rsocket-java 1.1.5 decodes this id to its MIME type (false for 0x29 and 0x2A). */
    public boolean knownToRsocketJava() {
        return id <= LAST_ID_KNOWN_TO_RSOCKET_JAVA || id >= MESSAGE_RSOCKET_MIME_TYPE.id;
    }

    /** The type with this id, or null when the id is unassigned or outside 0..127. */
    public static WellKnownMimeType fromId(int id) {
        return id >= 0 && id <= MAX_ID ? BY_ID[id] : null;
    }

    /** The type with exactly this MIME string (case-sensitive, as peers compare them), or null. */
    public static WellKnownMimeType fromString(String mimeType) {
        return mimeType == null ? null : BY_STRING.get(mimeType);
    }

    @Override
    public String toString() {
        return string;
    }
}
