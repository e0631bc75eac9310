package dev.sluice.frame.internal;

import io.netty.buffer.ByteBuf;
import io.netty.util.internal.PlatformDependent;

/**
 * Writes the fields of a small frame into a direct buffer by address, big-endian, with no bounds or liveness check
 * per field: the caller has made room for the whole frame once ({@code ensureWritable}) and moves the writer index
 * once at the end. Netty checks the index and the buffer's reference count on every {@code writeInt} and
 * {@code setIntLE}; for a frame of a few bytes those checks, a dozen of them, cost more than the bytes.
 *
 * <p>Only where Netty itself writes by address (it has {@code Unsafe} and the platform allows unaligned access);
 * elsewhere {@link #usable} is false and callers take the checked path. Not part of the API. Stateless;
 * thread-safe.
 */
public final class RawWrites {

    private static final boolean AVAILABLE = PlatformDependent.hasUnsafe() && PlatformDependent.isUnaligned();
    private static final boolean SWAP = !PlatformDependent.BIG_ENDIAN_NATIVE_ORDER;

    private RawWrites() {
    }

    /** Whether {@code out} may be written by address. */
    public static boolean usable(ByteBuf out) {
        return AVAILABLE && out.hasMemoryAddress();
    }

    /** The address of {@code out}'s writer index; {@link #usable} must hold. */
    public static long writerAddress(ByteBuf out) {
        return out.memoryAddress() + out.writerIndex();
    }

    public static void putInt(long address, int value) {
        PlatformDependent.putInt(address, SWAP ? Integer.reverseBytes(value) : value);
    }

    public static void putShort(long address, int value) {
        short v = (short) value;
        PlatformDependent.putShort(address, SWAP ? Short.reverseBytes(v) : v);
    }

    public static void putMedium(long address, int value) {
        PlatformDependent.putByte(address, (byte) (value >>> 16));
        putShort(address + 1, value);
    }

    /**
     * Copies {@code length} (at most {@link Copies#WORD_COPY_MAX}) bytes of {@code src} from {@code index} to
     * {@code address}, if {@code src} can be read by address, the region lies within it and it is not released;
     * otherwise copies nothing and returns false, for the caller's checked path to copy (or to throw as Netty does).
     */
    public static boolean copy(ByteBuf src, int index, int length, long address) {
        if (length > Copies.WORD_COPY_MAX || !src.hasMemoryAddress() || index < 0 || length < 0
                || index > src.capacity() - length || src.refCnt() == 0) {
            return false;
        }
        long from = src.memoryAddress() + index;
        int i = 0;
        for (; i <= length - Long.BYTES; i += Long.BYTES) {
            PlatformDependent.putLong(address + i, PlatformDependent.getLong(from + i));
        }
        if (length - i >= Integer.BYTES) {
            PlatformDependent.putInt(address + i, PlatformDependent.getInt(from + i));
            i += Integer.BYTES;
        }
        for (; i < length; i++) {
            PlatformDependent.putByte(address + i, PlatformDependent.getByte(from + i));
        }
        return true;
    }
}
