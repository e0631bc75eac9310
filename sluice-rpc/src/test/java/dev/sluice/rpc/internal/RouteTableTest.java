package dev.sluice.rpc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Lookups straight from a region of a received buffer, with many routes sharing slots. */
class RouteTableTest {

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** {@code route} placed at an offset inside a larger buffer, as a route sits inside a frame. */
    private static String lookup(RouteTable<String> table, String route) {
        ByteBuf frame = Unpooled.buffer();
        frame.writeBytes(utf8("prefix-"));
        int index = frame.writerIndex();
        frame.writeBytes(utf8(route));
        frame.writeBytes(utf8("-suffix"));
        return table.get(frame, index, utf8(route).length);
    }

    @Test
    void findsEveryRouteAndNothingElse() {
        List<byte[]> routes = new ArrayList<>();
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            routes.add(utf8("pkg.Service" + (i % 7) + "/Method" + i));
            values.add("v" + i);
        }
        RouteTable<String> table = new RouteTable<>(routes, values);
        for (int i = 0; i < 200; i++) {
            assertThat(lookup(table, "pkg.Service" + (i % 7) + "/Method" + i)).isEqualTo("v" + i);
        }
        assertThat(lookup(table, "pkg.Service0/Method1")).as("right method, wrong service").isNull();
        assertThat(lookup(table, "pkg.Service0/Method")).as("a prefix").isNull();
        assertThat(lookup(table, "")).isNull();
    }

    @Test
    void routesOfEveryLengthDifferingOnlyInTheMiddleAreToldApart() {
        // Same length, same first and last 8 bytes: only the word-by-word comparison of the middle tells them apart.
        List<byte[]> routes = new ArrayList<>();
        List<String> values = new ArrayList<>();
        for (int length = 1; length <= 48; length++) {
            for (char middle = 'a'; middle <= 'c'; middle++) {
                routes.add(utf8(route(length, middle)));
                values.add(length + "" + middle);
            }
        }
        RouteTable<String> table = new RouteTable<>(routes, values);
        for (int length = 1; length <= 48; length++) {
            for (char middle = 'a'; middle <= 'c'; middle++) {
                assertThat(lookup(table, route(length, middle))).isEqualTo(length + "" + middle);
            }
            assertThat(lookup(table, route(length, 'z'))).as("length %d, unknown middle", length).isNull();
        }
    }

    /** {@code length} bytes: {@code middle} at the centre, {@code x} everywhere else. */
    private static String route(int length, char middle) {
        char[] chars = new char[length];
        Arrays.fill(chars, 'x');
        chars[length / 2] = middle;
        return new String(chars);
    }

    @Test
    void anEmptyTableFindsNothing() {
        assertThat(lookup(new RouteTable<>(List.of(), List.of()), "a.B/C")).isNull();
    }

    @Test
    void aRouteRegisteredTwiceIsRefused() {
        assertThatThrownBy(() -> new RouteTable<>(List.of(utf8("a.B/C"), utf8("a.B/C")), List.of("1", "2")))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("route registered twice: a.B/C");
    }

    @Test
    void nonAsciiRoutesAreBytes() {
        RouteTable<String> table = new RouteTable<>(List.of(utf8("ünï.Cödé/Mëthod")), List.of("found"));
        assertThat(lookup(table, "ünï.Cödé/Mëthod")).isEqualTo("found");
    }
}
