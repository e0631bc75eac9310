package dev.sluice.cli.address;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The bearer tokens of an {@code --auth-token-file}: one per line, surrounding whitespace stripped; blank lines and
 * lines starting with {@code #} are skipped (room for a note on which token is whose). A server accepts any of
 * them; a client sends its file's only one.
 *
 * <p>No message of this class quotes a token: errors name the file and a line number, and a token is known by its
 * line ({@code token on line 3}). The server keeps only the tokens' SHA-256 digests and compares digests, so the
 * time a comparison takes says nothing about how much of a guess was right.
 *
 * <p>Immutable and thread-safe once read.
 */
final class TokenFile {

    private final Path file;
    /** Line numbers by SHA-256 digest of the token, hex. */
    private final Map<String, Integer> linesByDigest;
    private final List<String> tokens;

    private TokenFile(Path file, Map<String, Integer> linesByDigest, List<String> tokens) {
        this.file = file;
        this.linesByDigest = linesByDigest;
        this.tokens = tokens;
    }

    /**
     * Reads {@code file}.
     *
     * @throws IllegalArgumentException naming {@code option} and the file, when it cannot be read, is not UTF-8 or
     *                                  holds no token
     */
    static TokenFile read(String option, Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(option + " " + file + ": no such file");
        } catch (AccessDeniedException e) {
            throw new IllegalArgumentException(option + " " + file + ": permission denied");
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException(option + " " + file + ": not UTF-8 text");
        } catch (IOException e) {
            throw new IllegalArgumentException(option + " " + file + ": cannot read it ("
                + (Files.isDirectory(file) ? "a directory" : e.getClass().getSimpleName()) + ")");
        }
        Map<String, Integer> digests = new HashMap<>();
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String token = lines.get(i).strip();
            if (token.isEmpty() || token.startsWith("#")) {
                continue;
            }
            tokens.add(token);
            digests.putIfAbsent(digest(token), i + 1);
        }
        if (tokens.isEmpty()) {
            throw new IllegalArgumentException(option + " " + file + " holds no token (one per line; blank lines and"
                + " lines starting with # do not count)");
        }
        return new TokenFile(file, Map.copyOf(digests), List.copyOf(tokens));
    }

    Path file() {
        return file;
    }

    /** How many tokens the file holds. */
    int count() {
        return tokens.size();
    }

    /** The line of {@code token} in the file, or -1 when it is not one of them. */
    int lineOf(String token) {
        Integer line = linesByDigest.get(digest(token));
        return line == null ? -1 : line;
    }

    /**
     * The file's one token, for a client.
     *
     * @throws IllegalArgumentException naming {@code option}, when the file holds more than one
     */
    String single(String option) {
        if (tokens.size() > 1) {
            throw new IllegalArgumentException(option + " " + file + " holds " + tokens.size() + " tokens; a client"
                + " sends one: give it a file with one line");
        }
        return tokens.get(0);
    }

    private static String digest(String token) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
            StringBuilder hex = new StringBuilder(d.length * 2);
            for (byte b : d) {
                hex.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
