package dev.sluice.limits.redis.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The Lua script that Redis runs, atomically, for every decision: Go's token bucket over one hash per key, on
 * Redis's clock ({@code bucket.lua} beside this class documents the state, the arguments and the replies).
 *
 * <p>The script is sent by its SHA-1 ({@code EVALSHA}); a server that does not know it yet (a restart, a failover,
 * {@code SCRIPT FLUSH}) answers {@code NOSCRIPT}, and the caller sends the source once with {@code EVAL}, which
 * also caches it. Not part of the API. Immutable; thread-safe.
 */
public final class BucketScript {

    /** The operation that reserves tokens (and allows, with a longest wait of 0). */
    public static final String RESERVE = "r";
    /** The operation that gives a reservation's tokens back. */
    public static final String CANCEL = "c";
    /** The operation that reads the tokens and changes nothing. */
    public static final String TOKENS = "t";

    /** The time argument that makes the script read Redis's clock ({@code TIME}); tests pass fixed instants. */
    public static final String REDIS_TIME = "";

    /** The argument that stands for "any wait": {@code RESERVE} then never refuses for the wait's length. */
    public static final String ANY_WAIT = "-1";

    /** The script's source. */
    public static final String SOURCE = load("bucket.lua");

    /** The lowercase hex SHA-1 of {@link #SOURCE}: the name Redis caches it under. */
    public static final String SHA1 = sha1Hex(SOURCE);

    private BucketScript() {
    }

    private static String load(String name) {
        try (InputStream in = BucketScript.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("resource missing: " + name + " beside " + BucketScript.class);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + name, e);
        }
    }

    static String sha1Hex(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8));
            StringBuilder hex = new StringBuilder(digest.length * 2);
            for (byte b : digest) {
                hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            // Every Java platform must provide SHA-1 (MessageDigest's Javadoc).
            throw new IllegalStateException(e);
        }
    }
}
