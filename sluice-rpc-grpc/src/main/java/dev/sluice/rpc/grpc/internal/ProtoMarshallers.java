package dev.sluice.rpc.grpc.internal;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import io.grpc.MethodDescriptor;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.protobuf.lite.ProtoLiteUtils;

/** grpc-java's own protobuf marshallers, for a message known by its parser. Stateless. */
public final class ProtoMarshallers {

    private ProtoMarshallers() {
    }

    /** The marshaller protoc-gen-grpc-java would declare for the message {@code parser} reads. */
    @SuppressWarnings("unchecked")
    public static <T extends MessageLite> MethodDescriptor.Marshaller<T> of(Parser<T> parser) {
        T defaultInstance;
        try {
            // Generated code knows the default instance; a parser yields it from no bytes (partial: proto2's
            // required fields are unset there).
            defaultInstance = (T) parser.parsePartialFrom(ByteString.EMPTY).getDefaultInstanceForType();
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalArgumentException("cannot read an empty message with " + parser, e);
        }
        if (defaultInstance instanceof Message message) {
            // The full runtime's marshaller also lets grpc-java's binary log and reflection see the message type.
            return (MethodDescriptor.Marshaller<T>) ProtoUtils.marshaller(message);
        }
        return ProtoLiteUtils.marshaller(defaultInstance);
    }
}
