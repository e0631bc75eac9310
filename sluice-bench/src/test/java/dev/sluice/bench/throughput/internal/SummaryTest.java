package dev.sluice.bench.throughput.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SummaryTest {

    @Test
    void oddCountTakesTheMiddleFigureWhateverTheOrder() {
        assertThat(Summary.of(List.of(30L, 10L, 20L))).isEqualTo(new Summary(20, 10, 30, 3));
    }

    @Test
    void evenCountTakesTheMeanOfTheTwoMiddleFigures() {
        assertThat(Summary.of(List.of(4L, 1L, 3L, 2L))).isEqualTo(new Summary(2.5, 1, 4, 4));
    }

    @Test
    void oneFigureIsItsOwnMedianMinAndMax() {
        assertThat(Summary.of(List.of(7L))).isEqualTo(new Summary(7, 7, 7, 1));
    }

    @Test
    void noFiguresIsAnError() {
        assertThatThrownBy(() -> Summary.of(List.of())).hasMessage("no figures to summarise");
    }
}
