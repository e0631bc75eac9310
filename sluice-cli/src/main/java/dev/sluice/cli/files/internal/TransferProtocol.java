package dev.sluice.cli.files.internal;

import dev.sluice.core.Payload;
import dev.sluice.core.exceptions.RejectedException;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The wire convention of {@code sluice file-server}, {@code sluice upload} and {@code sluice download}: which
 * RSocket interaction carries what, in which payload field. Text is UTF-8; a {@link Checksum} travels in its text
 * form {@code "<bytes> <sha256>"}.
 *
 * <h2>Upload: request-channel</h2>
 * <pre>
 *  requester                                                       responder
 *  REQUEST_CHANNEL  metadata = name   data = content (may be empty) ──▶  checks the name (ServedDirectory)
 *  PAYLOAD          no metadata       data = content                ──▶  appends to a temporary file
 *  ...              (only within the REQUEST_N credits the responder grants: they follow its file writer's demand)
 *  COMPLETE                                                         ──▶  renames the temporary file to the name
 *                                                                   ◀──  PAYLOAD data = "&lt;bytes&gt; &lt;sha256&gt;"
 *                                                                   ◀──  COMPLETE
 * </pre>
 * The answer is the length and SHA-256 of what was stored, for the requester to compare with what it sent. A
 * refused name is answered with ERROR[REJECTED], any other failure with ERROR[APPLICATION_ERROR]; both quote the
 * name. A channel that ends in any other way than COMPLETE (ERROR or CANCEL from the requester, the connection
 * lost) stores nothing: the temporary file is deleted and the name is left as it was. An upload replaces an
 * existing file of the same name in one atomic rename.
 *
 * <h2>Download: request-stream</h2>
 * <pre>
 *  REQUEST_STREAM   metadata = name (or, without metadata, data = name)  ──▶
 *                                    ◀──  PAYLOAD metadata = "&lt;size&gt;"  data empty            (header)
 *                                    ◀──  PAYLOAD no metadata            data = content        (0..n chunks)
 *                                    ◀──  PAYLOAD metadata = "&lt;bytes&gt; &lt;sha256&gt;"  data empty  (trailer)
 *                                    ◀──  COMPLETE
 * </pre>
 * The header's size is the file's length when it was opened, for progress display; the trailer's checksum is that
 * of exactly the content that was sent. Chunks are read only as the requester's REQUEST_N asks for them. A missing
 * file or a refused name is answered with an ERROR before any payload, as for uploads.
 *
 * <p>Stateless and thread-safe. Every method that takes a {@link Payload} borrows it.
 */
public final class TransferProtocol {

    /** The longest name accepted, in UTF-8 bytes: Linux's PATH_MAX. */
    public static final int MAX_NAME_BYTES = 4096;

    private TransferProtocol() {
    }

    /** The first payload of an upload of {@code name}, without content. */
    public static Payload uploadHead(String name) {
        return Payload.create("", name);
    }

    /** The request of a download of {@code name}. */
    public static Payload downloadRequest(String name) {
        return Payload.create("", name);
    }

    /**
     * The name a request carries: its metadata, or its data when it has no metadata.
     *
     * @throws RejectedException if the name is empty, longer than {@value #MAX_NAME_BYTES} bytes or not UTF-8
     */
    public static String requestedName(Payload request) {
        ByteBuf field = request.hasMetadata() ? request.metadata() : request.data();
        int length = field.readableBytes();
        if (length == 0) {
            throw new RejectedException("no file name: the request's metadata (or, without metadata, its data)"
                + " must hold it");
        }
        if (length > MAX_NAME_BYTES) {
            throw new RejectedException("file name longer than " + MAX_NAME_BYTES + " bytes: " + length + " bytes");
        }
        ByteBuffer bytes = field.nioBuffer(field.readerIndex(), length);
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(bytes).toString();
        } catch (CharacterCodingException e) {
            throw new RejectedException("file name is not valid UTF-8 (" + length + " bytes)");
        }
    }

    /** The answer to a successful upload: the checksum of what was stored, in the data. */
    public static Payload uploadAnswer(Checksum stored) {
        return Payload.create(stored.toString());
    }

    /**
     * The checksum an upload's answer carries.
     *
     * @throws IllegalArgumentException quoting the data if it is not a checksum
     */
    public static Checksum parseUploadAnswer(Payload answer) {
        return Checksum.parse(answer.dataUtf8());
    }

    /** The first payload of a download: the file's size when opened, in the metadata. */
    public static Payload downloadHeader(long size) {
        return Payload.create("", Long.toString(size));
    }

    /**
     * The size a download's header carries.
     *
     * @throws IllegalArgumentException if the payload is not a header
     */
    public static long parseDownloadHeader(Payload header) {
        String text = header.hasMetadata() ? header.metadataUtf8() : null;
        if (text == null || header.data().isReadable()) {
            throw new IllegalArgumentException("the first payload of a download is not a header (metadata = size,"
                + " no data): " + header);
        }
        try {
            long size = Long.parseLong(text);
            if (size >= 0) {
                return size;
            }
        } catch (NumberFormatException e) {
            // reported below, with the text
        }
        throw new IllegalArgumentException("the download header's size is not a number >= 0: '" + text + "'");
    }

    /** The last payload of a download: the checksum of the content sent, in the metadata. */
    public static Payload downloadTrailer(Checksum sent) {
        return Payload.create("", sent.toString());
    }

    /**
     * The checksum a download's trailer carries.
     *
     * @throws IllegalArgumentException if the payload is not a trailer
     */
    public static Checksum parseDownloadTrailer(Payload trailer) {
        if (!trailer.hasMetadata() || trailer.data().isReadable()) {
            throw new IllegalArgumentException("not a download trailer (metadata = checksum, no data): " + trailer);
        }
        return Checksum.parse(trailer.metadataUtf8());
    }

    /** Whether a download payload after the header carries content (no metadata) rather than the trailer. */
    public static boolean isContent(Payload p) {
        return !p.hasMetadata();
    }
}
