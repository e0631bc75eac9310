/**
 * File transfer over RSocket: {@code sluice file-server} ({@link dev.sluice.cli.files.FileServerCommand}),
 * {@code sluice upload} ({@link dev.sluice.cli.files.UploadCommand}) and {@code sluice download}
 * ({@link dev.sluice.cli.files.DownloadCommand}). An upload is a request-channel whose first payload's metadata
 * names the file and whose data is the content; the server answers with the length and SHA-256 of what it stored.
 * A download is a request-stream: a header with the size, the content, a trailer with the checksum. The wire
 * convention in full is in {@link dev.sluice.cli.files.internal.TransferProtocol}; the name rules in
 * {@link dev.sluice.cli.files.internal.ServedDirectory}. The machinery lives in {@code dev.sluice.cli.files.internal}.
 */
package dev.sluice.cli.files;
