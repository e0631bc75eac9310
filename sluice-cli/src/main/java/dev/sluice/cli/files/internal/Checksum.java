package dev.sluice.cli.files.internal;

import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * What identifies a transferred file's content: its length and its SHA-256. Its text form, {@code "<bytes>
 * <sha256>"} (decimal length, one space, 64 lower-case hex digits), is what the file server answers an upload
 * with and what ends a download (see {@link TransferProtocol}).
 *
 * <p>Immutable.
 *
 * @param bytes the content's length in bytes; {@code >= 0}
 * @param sha256 the content's SHA-256 as 64 lower-case hex digits
 */
public record Checksum(long bytes, String sha256) {

    private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-f]{64}");
    /** The longest text form: 19 digits of a long, a space and 64 hex digits. */
    private static final int MAX_TEXT_LENGTH = 19 + 1 + 64;

    /**
     * @throws IllegalArgumentException if {@code bytes < 0} or {@code sha256} is not 64 lower-case hex digits
     */
    public Checksum {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes < 0: " + bytes);
        }
        if (sha256 == null || !SHA256_HEX.matcher(sha256).matches()) {
            throw new IllegalArgumentException("sha256 is not 64 lower-case hex digits: '" + sha256 + "'");
        }
    }

    /** The checksum of {@code bytes} bytes whose SHA-256 is {@code digest} (32 bytes). */
    public static Checksum of(long bytes, byte[] digest) {
        if (digest.length != 32) {
            throw new IllegalArgumentException("digest length != 32: " + digest.length);
        }
        return new Checksum(bytes, HexFormat.of().formatHex(digest));
    }

    /**
     * Parses the text form {@code "<bytes> <sha256>"}.
     *
     * @throws IllegalArgumentException quoting the text if it is not that form
     */
    public static Checksum parse(String text) {
        if (text.length() > MAX_TEXT_LENGTH) {
            throw new IllegalArgumentException("not '<bytes> <sha256>': " + text.length() + " characters");
        }
        int space = text.indexOf(' ');
        if (space <= 0) {
            throw new IllegalArgumentException("not '<bytes> <sha256>': '" + text + "'");
        }
        long bytes;
        try {
            bytes = Long.parseLong(text.substring(0, space));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not '<bytes> <sha256>', the length is not a number: '" + text + "'");
        }
        try {
            return new Checksum(bytes, text.substring(space + 1));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not '<bytes> <sha256>' (" + e.getMessage() + "): '" + text + "'");
        }
    }

    /** The text form, {@code "<bytes> <sha256>"}. */
    @Override
    public String toString() {
        return bytes + " " + sha256;
    }
}
