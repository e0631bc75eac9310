/**
 * Reactive file I/O with bounded memory: {@link dev.sluice.files.ReactiveFiles} reads a file as a {@code Flux} of
 * chunks honouring {@code request(n)}, and writes a {@code Publisher} of chunks to a file with an adaptive request
 * window capped in items and bytes, topped up only as writes complete. {@link dev.sluice.files.ReadOptions} and
 * {@link dev.sluice.files.WriteOptions} configure them. The machinery lives in {@code dev.sluice.files.internal}.
 */
package dev.sluice.files;
