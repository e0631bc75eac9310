package dev.sluice.cli;

import io.lettuce.core.RedisURI;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Set;
import picocli.CommandLine;

/**
 * Parses {@code --redis}: {@code redis://host:port[/db]}, {@code rediss://} for TLS, with an optional
 * {@code user:password@}, or Lettuce's {@code redis-sentinel://} and {@code redis-socket://} forms. Stricter than
 * Lettuce, which reads {@code redis://host:abc} as a host named {@code host:abc}: a wrong value is a usage error
 * (exit 2) that quotes it, not a connection failure later.
 */
public final class RedisUriConverter implements CommandLine.ITypeConverter<RedisURI> {

    private static final Set<String> HOST_SCHEMES = Set.of("redis", "rediss");
    private static final Set<String> OTHER_SCHEMES = Set.of("redis-sentinel", "rediss-sentinel", "redis-socket");
    private static final String FORM = "expected redis://host:port[/db] (or rediss://, redis-sentinel://,"
        + " redis-socket://), got '";

    /**
     * The Redis URI {@code text} names.
     *
     * @throws IllegalArgumentException quoting {@code text} if it is not one
     */
    public static RedisURI parse(String text) {
        String t = text.trim();
        URI uri;
        try {
            uri = new URI(t);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(FORM + text + "': " + e.getReason());
        }
        String scheme = uri.getScheme();
        if (scheme == null || !HOST_SCHEMES.contains(scheme) && !OTHER_SCHEMES.contains(scheme)) {
            throw new IllegalArgumentException(FORM + text + "'");
        }
        if (HOST_SCHEMES.contains(scheme)) {
            // java.net.URI leaves the host null when the authority is not host[:port] (e.g. host:abc).
            if (uri.getHost() == null || uri.getHost().isEmpty()) {
                throw new IllegalArgumentException(FORM + text + "': no host, or a port that is not a number");
            }
            if (uri.getPort() == 0 || uri.getPort() > 65535) {
                throw new IllegalArgumentException("--redis port must be between 1 and 65535, got " + uri.getPort()
                    + " in '" + text + "'");
            }
            String path = uri.getPath();
            if (path != null && !path.isEmpty() && !path.equals("/") && !path.matches("/\\d{1,5}")) {
                throw new IllegalArgumentException("--redis database must be a number, as in redis://host:port/0,"
                    + " got '" + text + "'");
            }
        }
        try {
            return RedisURI.create(t);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(FORM + text + "': " + e.getMessage());
        }
    }

    /** Where {@code uri} points, for messages: host:port, the socket or the sentinels; never the password. */
    public static String describe(RedisURI uri) {
        if (uri.getSocket() != null) {
            return uri.getSocket();
        }
        if (!uri.getSentinels().isEmpty()) {
            StringBuilder b = new StringBuilder("master ").append(uri.getSentinelMasterId()).append(" via");
            for (RedisURI s : uri.getSentinels()) {
                b.append(' ').append(s.getHost()).append(':').append(s.getPort());
            }
            return b.toString();
        }
        return (uri.getHost().contains(":") ? "[" + uri.getHost() + "]" : uri.getHost()) + ":" + uri.getPort();
    }

    @Override
    public RedisURI convert(String value) {
        try {
            return parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
