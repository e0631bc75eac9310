package dev.sluice.transport.netty.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@code -Dsluice.transport.workerThreads}: absent gives the default, a bad value a message naming it. */
class EventLoopsTest {

    private static final int PROCESSORS = 6;

    @Test
    void aValidValueOrNoneSizesTheWorkers() {
        Object[][] rows = {
            // property value, worker loops
            {null, PROCESSORS}, // absent: the available processors
            {"1", 1},
            {" 8 ", 8}, // as -D"sluice.transport.workerThreads= 8" gives it
            {"4096", 4096},
        };
        for (Object[] row : rows) {
            assertThat(EventLoops.workerThreads((String) row[0], PROCESSORS)).as("'%s'", row[0]).isEqualTo(row[1]);
        }
    }

    @Test
    void anythingElseIsAnIllegalArgumentNamingThePropertyTheValueAndTheRange() {
        for (String value : new String[] {"0", "-1", "4097", "four", "", "2.5", "99999999999"}) {
            assertThatThrownBy(() -> EventLoops.workerThreads(value, PROCESSORS)).as("'%s'", value)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("-Dsluice.transport.workerThreads must be a whole number from 1 to 4096, got '" + value
                    + "'");
        }
    }
}
