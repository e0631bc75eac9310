package dev.sluice.frame.metadata;

/**
 * Metadata bytes that do not follow their format: a length that runs past the end, a truncated field. The
 * message quotes the position and the values. Thrown by the metadata readers instead of an
 * {@link IndexOutOfBoundsException}, so that a caller can answer the peer (e.g. with ERROR[INVALID]) rather than
 * treat it as a bug.
 */
public final class MalformedMetadataException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** A malformed-metadata failure described by {@code message}. */
    public MalformedMetadataException(String message) {
        super(message);
    }
}
