package dev.sluice.core;

/**
 * How a connection hands received payloads to the application: as zero-copy views of the network buffer (the
 * default) or as heap copies that need no release. Set with {@link RSocketConnector#payloadDecoder} and
 * {@link RSocketServer#payloadDecoder}; it applies to every payload the application receives on that side —
 * requests arriving at its handlers and responses to its own requests.
 *
 * <p>The names follow rsocket-java's {@code PayloadDecoder}, with one difference a port must notice: rsocket-java's
 * default ({@code DEFAULT}) copies, Sluice's default is {@link #ZERO_COPY}. There is no {@code DEFAULT} constant
 * here, so that ported code naming it fails to compile instead of silently switching to reference counting.
 */
public enum PayloadDecoder {

    /**
     * Received payloads are views of the buffer the frame arrived in: no copy, no allocation per frame. Each is
     * reference-counted and must be released (or handed back to Sluice); one that is forgotten keeps its network
     * buffer, typically pooled direct memory, alive until Netty's leak detector reports it.
     */
    ZERO_COPY,

    /**
     * Received payloads are heap copies that hold no network buffer: the buffer is released as soon as the copy is
     * made, {@link Payload#release()} on a copy does nothing, and a copy never released is simply collected by the
     * garbage collector. This removes the leak {@link #ZERO_COPY} risks when code forgets a release (direct memory
     * growing with every request), at the price of one copy and one allocation per received payload. Payloads the
     * application creates and sends are unaffected: Sluice still releases those once written.
     */
    COPY
}
