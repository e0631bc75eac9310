/**
 * Machinery behind {@link dev.sluice.files.ReactiveFiles}; not part of the API and free to change.
 *
 * <p>{@link dev.sluice.files.internal.FileReadSubscription} and {@link dev.sluice.files.internal.FileWriteSubscriber}
 * are the two state machines (one drain run at a time per subscription, on the scheduler);
 * the writer keeps what waits in a {@link dev.sluice.files.internal.ChunkBacklog} and writes it in a
 * {@link dev.sluice.files.internal.GatheringBatch}; {@link dev.sluice.files.internal.GreedDemand} computes the
 * writer's demand, the writer enforces it;
 * {@link dev.sluice.files.internal.ChunkType} abstracts over {@code ByteBuf} and {@code ByteBuffer} chunks.
 */
package dev.sluice.files.internal;
