package dev.sluice.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBufAllocator;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;

class OptionsTest {

    @Test
    void writeDefaults() {
        WriteOptions o = WriteOptions.defaults();

        assertThat(o.openOptions()).containsExactlyInAnyOrder(StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        assertThat(o.fsync()).isFalse();
        assertThat(o.minItemsInFlight()).isEqualTo(2);
        assertThat(o.initialItemsInFlight()).isEqualTo(4);
        assertThat(o.maxItemsInFlight()).isEqualTo(64);
        assertThat(o.maxBytesInFlight()).isEqualTo(1024 * 1024);
        assertThat(o.scheduler()).isSameAs(FileIoScheduler.shared());
    }

    @Test
    void unsetWindowBoundsFollowTheOthers() {
        WriteOptions one = WriteOptions.builder().maxItemsInFlight(1).build();
        assertThat(one.minItemsInFlight()).isEqualTo(1);
        assertThat(one.initialItemsInFlight()).isEqualTo(1);

        WriteOptions fixed = WriteOptions.builder().minItemsInFlight(16).maxItemsInFlight(16).build();
        assertThat(fixed.initialItemsInFlight()).isEqualTo(16);

        WriteOptions startSmall = WriteOptions.builder().initialItemsInFlight(1).build();
        assertThat(startSmall.minItemsInFlight()).isEqualTo(1);
    }

    @Test
    void writeOptionsRejectBadValuesQuotingThem() {
        assertThatThrownBy(() -> WriteOptions.builder().maxItemsInFlight(0))
                .hasMessage("maxItemsInFlight < 1: 0");
        assertThatThrownBy(() -> WriteOptions.builder().maxItemsInFlight(WriteOptions.MAX_ITEMS_LIMIT + 1))
                .hasMessage("maxItemsInFlight > 65536: 65537");
        assertThatThrownBy(() -> WriteOptions.builder().minItemsInFlight(0)).hasMessage("minItemsInFlight < 1: 0");
        assertThatThrownBy(() -> WriteOptions.builder().initialItemsInFlight(-1))
                .hasMessage("initialItemsInFlight < 1: -1");
        assertThatThrownBy(() -> WriteOptions.builder().maxBytesInFlight(0)).hasMessage("maxBytesInFlight < 1: 0");
        assertThatThrownBy(() -> WriteOptions.builder().minItemsInFlight(8).maxItemsInFlight(4).build())
                .hasMessage("minItemsInFlight > maxItemsInFlight: 8 > 4");
        assertThatThrownBy(() -> WriteOptions.builder().minItemsInFlight(8).initialItemsInFlight(4).build())
                .hasMessage("initialItemsInFlight < minItemsInFlight: 4 < 8");
        assertThatThrownBy(() -> WriteOptions.builder().initialItemsInFlight(100).build())
                .hasMessage("initialItemsInFlight > maxItemsInFlight: 100 > 64");
        assertThatThrownBy(() -> WriteOptions.builder().openOptions(StandardOpenOption.CREATE))
                .hasMessage("openOptions lack WRITE: [CREATE]");
        assertThatThrownBy(() -> WriteOptions.builder().openOptions(StandardOpenOption.WRITE,
                StandardOpenOption.APPEND))
                .hasMessage("openOptions contain APPEND, but writes start at offset 0: [WRITE, APPEND]");
    }

    @Test
    void readDefaultsAndValidation() {
        ReadOptions o = ReadOptions.defaults();
        assertThat(o.chunkSize()).isEqualTo(64 * 1024);
        assertThat(o.allocator()).isSameAs(ByteBufAllocator.DEFAULT);
        assertThat(o.scheduler()).isSameAs(FileIoScheduler.shared());

        assertThatThrownBy(() -> ReadOptions.builder().chunkSize(0)).hasMessage("chunkSize < 1: 0");
    }
}
