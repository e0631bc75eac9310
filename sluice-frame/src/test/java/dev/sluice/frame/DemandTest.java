package dev.sluice.frame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link Demand} on its own: the wire mapping at its edges and the saturating arithmetic. (The frames' use of the
 * mapping is {@link DemandMappingTest}.)
 */
class DemandTest {

    private static final long MAX = Long.MAX_VALUE;

    @ParameterizedTest(name = "toWire({0}) = {1}")
    @CsvSource({
        // n,                    wire
        "1,                      1",
        "2147483646,             2147483646", // 2^31-2: the largest bounded demand the field carries
        "2147483647,             2147483647", // 2^31-1 is unbounded already
        "2147483648,             2147483647", // clamped
        "9223372036854775807,    2147483647", // Long.MAX_VALUE, the API's unbounded
    })
    void toWireClampsToTheUnboundedWireValue(long n, int wire) {
        assertThat(Demand.toWire("n", n)).isEqualTo(wire);
    }

    @Test
    void toWireRefusesDemandBelowOneNamingTheValue() {
        assertThatThrownBy(() -> Demand.toWire("n", 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("n < 1: 0");
        assertThatThrownBy(() -> Demand.toWire("initialRequestN", Long.MIN_VALUE))
                .hasMessage("initialRequestN < 1: -9223372036854775808");
    }

    @ParameterizedTest(name = "fromWire({0}) = {1}")
    @CsvSource({
        // raw field (hex),  API value
        "00000001,           1",
        "7ffffffe,           2147483646",
        "7fffffff,           9223372036854775807", // unbounded
        "80000005,           5",                   // the reserved top bit is masked
        "ffffffff,           9223372036854775807", // masked, then unbounded
        "00000000,           0",                   // invalid on the wire; read as it is
    })
    void fromWireMasksTheTopBitAndMapsUnbounded(String rawHex, long value) {
        assertThat(Demand.fromWire(Integer.parseUnsignedInt(rawHex, 16))).isEqualTo(value);
    }

    @ParameterizedTest(name = "add({0}, {1}) = {2}")
    @CsvSource({
        // a,                    b,                     a + b saturated
        "0,                      0,                     0",
        "3,                      4,                     7",
        "9223372036854775806,    1,                     9223372036854775807", // exactly the maximum
        "9223372036854775806,    2,                     9223372036854775807", // would overflow: saturates
        "9223372036854775807,    9223372036854775807,   9223372036854775807", // unbounded stays unbounded
        "1,                      9223372036854775807,   9223372036854775807",
    })
    void addSaturates(long a, long b, long sum) {
        assertThat(Demand.add(a, b)).isEqualTo(sum);
        assertThat(Demand.add(b, a)).isEqualTo(sum);
    }

    @ParameterizedTest(name = "grant({0}, {1}) = {2}")
    @CsvSource({
        // outstanding,          n sent,                credits the peer holds
        "0,                      1,                     1",
        "10,                     5,                     15",
        "10,                     2147483646,            2147483656",          // bounded grants add up past 2^31
        "10,                     2147483647,            9223372036854775807", // the peer reads 2^31-1 as unbounded
        "0,                      9223372036854775807,   9223372036854775807",
        "9223372036854775800,    100,                   9223372036854775807", // saturates
    })
    void grantIsUnboundedFromTheWiresUnboundedValue(long outstanding, long n, long credits) {
        assertThat(Demand.grant(outstanding, n)).isEqualTo(credits);
    }

    @Test
    void unboundedWireValueIsTheLargestU31() {
        assertThat(Demand.UNBOUNDED_WIRE).isEqualTo((1 << 31) - 1);
        assertThat(Demand.fromWire(Demand.UNBOUNDED_WIRE)).isEqualTo(MAX);
    }
}
