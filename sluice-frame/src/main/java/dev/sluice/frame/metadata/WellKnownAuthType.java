package dev.sluice.frame.metadata;

/**
 * The authentication types that {@link AuthMetadata} can name with a 7-bit id instead of a string (the protocol's
 * "Well-known Authentication Types"): {@code simple} (0x00) and {@code bearer} (0x01), the two rsocket-java 1.1.5
 * and Spring Security know. Ids 0x02..0x7F are reserved. Immutable and thread-safe.
 */
public enum WellKnownAuthType {
    /** Username and password ({@code Simple.md}): a u16 username length, the username, the password. */
    SIMPLE(0x00, "simple"),
    /** A bearer token ({@code Bearer.md}): the token's bytes, the whole payload. */
    BEARER(0x01, "bearer");

    /** The largest id the 7-bit field can carry. */
    public static final int MAX_ID = 0x7F;

    private final int id;
    private final String string;

    WellKnownAuthType(int id, String string) {
        this.id = id;
        this.string = string;
    }

    /** The 7-bit id. */
    public int id() {
        return id;
    }

    /** The type's name, e.g. {@code "bearer"}. */
    public String string() {
        return string;
    }

    /** The type with this id, or null when the id is reserved (0x02..0x7F) or outside 0..127. */
    public static WellKnownAuthType fromId(int id) {
        return id == 0x00 ? SIMPLE : id == 0x01 ? BEARER : null;
    }

    /** The type with exactly this name (case-sensitive), or null. */
    public static WellKnownAuthType fromString(CharSequence name) {
        if (name == null) {
            return null;
        }
        return SIMPLE.string.contentEquals(name) ? SIMPLE : BEARER.string.contentEquals(name) ? BEARER : null;
    }

    @Override
    public String toString() {
        return string;
    }
}
