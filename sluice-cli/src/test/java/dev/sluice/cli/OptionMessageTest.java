package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A library's message about a setting, reworded to name the command-line option. */
class OptionMessageTest {

    @Test
    void theOptionTakesTheSettingsPlaceOrGoesInFront() {
        String[][] rows = {
            // option, library message, usage error
            {"--mtu", "mtu must be 0 (no fragmentation) or between 64 and 16777218, got 10",
                "--mtu must be 0 (no fragmentation) or between 64 and 16777218, got 10"},
            {"--backlog", "backlog must be > 0, got 0", "--backlog must be > 0, got 0"},
            // A message that does not start with the setting's name keeps it whole, after the option.
            {"--mtu", "too small: 10", "--mtu: too small: 10"},
            {"--mtu", "mtus are odd", "--mtu: mtus are odd"},
        };
        for (String[] row : rows) {
            assertThat(OptionMessage.of(row[0], row[1])).as(row[1]).isEqualTo(row[2]);
        }
    }
}
