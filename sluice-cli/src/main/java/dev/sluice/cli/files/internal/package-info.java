/**
 * The machinery behind the file-transfer commands: the wire convention ({@code TransferProtocol}), the server's
 * handler ({@code FileService}) and its confinement to one directory ({@code ServedDirectory}), the client
 * ({@code TransferClient}), files published by atomic rename ({@code StagedFile}), checksums and progress display.
 * Not an API: the commands in {@code dev.sluice.cli.files} are.
 */
package dev.sluice.cli.files.internal;
