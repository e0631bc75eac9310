package dev.sluice.core.internal.lease;

/**
 * Hears how the responder's streams end, for lease statistics: the first signal a response produced and its last.
 * Event-loop confined. {@link #NOOP} when nobody listens.
 */
public interface ResponderObserver {

    int NEXT = 0;
    int COMPLETE = 1;
    int ERROR = 2;
    int CANCEL = 3;

    ResponderObserver NOOP = new ResponderObserver() {
        @Override
        public void onFirstSignal(int streamId, int signal) {
        }

        @Override
        public void onTerminated(int streamId, int signal) {
        }
    };

    /** The response on {@code streamId} produced its first signal (one of the constants above). */
    void onFirstSignal(int streamId, int signal);

    /** The response on {@code streamId} ended with {@code signal}. */
    void onTerminated(int streamId, int signal);

    /**
     * The response on {@code streamId} failed with {@code error}: called just before
     * {@code onTerminated(streamId, ERROR)} when the responder's own answer failed (not when the requester's
     * stream sent an ERROR).
     */
    default void onError(int streamId, Throwable error) {
    }
}
