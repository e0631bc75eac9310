package dev.sluice.core;

import dev.sluice.frame.FrameType;

/** The four request interactions, as a responder sees them. */
public enum RequestType {
    FIRE_AND_FORGET,
    REQUEST_RESPONSE,
    REQUEST_STREAM,
    REQUEST_CHANNEL;

    /** The interaction a REQUEST_* frame type opens. */
    public static RequestType fromFrameType(int frameType) {
        return switch (frameType) {
            case FrameType.REQUEST_FNF -> FIRE_AND_FORGET;
            case FrameType.REQUEST_RESPONSE -> REQUEST_RESPONSE;
            case FrameType.REQUEST_STREAM -> REQUEST_STREAM;
            case FrameType.REQUEST_CHANNEL -> REQUEST_CHANNEL;
            default -> throw new IllegalArgumentException("not a request frame type: " + FrameType.name(frameType));
        };
    }
}
