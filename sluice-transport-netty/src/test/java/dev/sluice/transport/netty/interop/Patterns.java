package dev.sluice.transport.netty.interop;

/** Deterministic byte patterns for large payloads, so that a reassembled copy can be compared byte for byte. */
final class Patterns {

    private Patterns() {
    }

    /** {@code size} pseudo-random bytes from a linear congruential sequence started at {@code seed}. */
    static byte[] bytes(int size, int seed) {
        byte[] b = new byte[size];
        int x = seed;
        for (int i = 0; i < size; i++) {
            x = x * 1103515245 + 12345;
            b[i] = (byte) (x >>> 16);
        }
        return b;
    }
}
