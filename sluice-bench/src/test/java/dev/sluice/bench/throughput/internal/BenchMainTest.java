package dev.sluice.bench.throughput.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BenchMainTest {

    private static final String[] WITH_METADATA = {"--interaction", "response", "--metadata-size", "40"};

    @Test
    void onlyAClientThatSendsMetadataTakesAMetadataSize() {
        ChildOptions options = ChildOptions.parse(WITH_METADATA);
        assertThat(BenchMain.metadataChecked(options, true)).isSameAs(options);
        assertThatThrownBy(() -> BenchMain.metadataChecked(options, false))
            .hasMessage("--metadata-size is implemented by the Sluice client only");
        ChildOptions none = ChildOptions.parse(new String[] {"--interaction", "response"});
        assertThat(BenchMain.metadataChecked(none, false)).isSameAs(none);
    }
}
