package dev.sluice.cli.load.internal;

/** A sent request whose outcome must be counted exactly once, whichever of its answer or its expiry comes first. */
public interface TrackedRequest {

    /** When the request was due to be sent, ns; latencies are measured from here. */
    long intendedNanos();

    /** Claims the right to count this request's outcome: true for the first caller only. Thread-safe. */
    boolean settle();
}
