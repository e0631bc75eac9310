package dev.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.limits.KeyedRateLimiter;
import dev.sluice.limits.RateLimiter;
import java.time.Duration;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

/** {@link RateLimitGate}'s arguments are checked when the gate is made, the wait first, with the value quoted. */
class RateLimitGateArgumentsTest {

    private static final RateLimiter LIMITER = RateLimiter.create(10, 1);
    private static final KeyedRateLimiter<String> KEYED = KeyedRateLimiter.<String>builder(10, 1).build();
    private static final Function<Payload, String> KEY = p -> "k";

    @Test
    void aMissingOrNegativeWaitIsAnIllegalArgumentBeforeAnythingElseIsRead() {
        Object[][] rows = {
            // maxWait, expected message
            {null, "maxWait is null: Duration.ZERO refuses a request without a token at once"},
            {Duration.ofMillis(-1), "maxWait must be >= 0, got PT-0.001S"},
        };
        for (Object[] row : rows) {
            Duration maxWait = (Duration) row[0];
            String message = (String) row[1];
            assertThatThrownBy(() -> RateLimitGate.of(LIMITER, maxWait)).as("%s", maxWait)
                .isExactlyInstanceOf(IllegalArgumentException.class).hasMessage(message);
            assertThatThrownBy(() -> RateLimitGate.of(KEYED, KEY, maxWait)).as("keyed, %s", maxWait)
                .isExactlyInstanceOf(IllegalArgumentException.class).hasMessage(message);
            // The wait is checked first: a null limiter does not turn its error into a NullPointerException.
            assertThatThrownBy(() -> RateLimitGate.of((RateLimiter) null, maxWait)).as("no limiter, %s", maxWait)
                .isExactlyInstanceOf(IllegalArgumentException.class).hasMessage(message);
        }
    }

    @Test
    void aMissingLimiterOrKeyFailsWhenTheGateIsMadeNotAtTheFirstRequest() {
        assertThatThrownBy(() -> RateLimitGate.of((RateLimiter) null, Duration.ZERO))
            .isExactlyInstanceOf(NullPointerException.class).hasMessage("limiter");
        assertThatThrownBy(() -> RateLimitGate.of((KeyedRateLimiter<String>) null, KEY, Duration.ZERO))
            .isExactlyInstanceOf(NullPointerException.class).hasMessage("limiter");
        assertThatThrownBy(() -> RateLimitGate.of(KEYED, null, Duration.ZERO))
            .isExactlyInstanceOf(NullPointerException.class).hasMessage("key");
    }

    @Test
    void aWaitTooLongForNanosecondsIsNoErrorItIsNoBound() {
        RateLimitGate gate = RateLimitGate.of(RateLimiter.create(10, 1), Duration.ofSeconds(Long.MAX_VALUE));
        Payload request = Payload.create("r");
        try {
            assertThat(gate.admit(RequestType.REQUEST_RESPONSE, request)).as("the burst's token: no wait").isNull();
            // The next token is about 100 ms away, within the wait: the request is held back for it, not refused.
            StepVerifier.create(gate.admit(RequestType.REQUEST_RESPONSE, request))
                .expectComplete()
                .verify(Duration.ofSeconds(10));
        } finally {
            request.release();
        }
    }
}
