package dev.sluice.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * Replays the vectors that Go's {@code golang.org/x/time/rate} v0.16.0 wrote (see
 * {@code src/test/go/rateoracle}) and requires the same answer to every call: booleans and delays exactly, and
 * tokens to the bit, which is stricter than the 1e-9 the port needs and holds because the arithmetic is Go's.
 */
class RateOracleTest {

    private static final String VECTORS = "/rate-vectors.txt";

    @Test
    void everyCallAgreesWithGo() throws IOException {
        List<String> mismatches = new ArrayList<>();
        int checked = 0;
        int sequences = 0;
        RateLimiter lim = null;
        List<Reservation> reservations = new ArrayList<>();
        try (InputStream in = Objects.requireNonNull(getClass().getResourceAsStream(VECTORS), VECTORS);
                BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            int lineNo = 0;
            while ((line = reader.readLine()) != null) {
                lineNo++;
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split(" ");
                String where = VECTORS + ":" + lineNo + " `" + line + "`";
                if (f[0].equals("new")) {
                    lim = RateLimiter.create(Double.parseDouble(f[1]), Integer.parseInt(f[2]));
                    reservations.clear();
                    sequences++;
                    continue;
                }
                Objects.requireNonNull(lim, "no `new` before " + where);
                long t = Long.parseLong(f[1]);
                String expectedTokens = f[f.length - 1];
                switch (f[0]) {
                    case "allow":
                        check(mismatches, where, "ok", f[3], lim.allowN(t, Integer.parseInt(f[2])) ? "1" : "0");
                        break;
                    case "reserve": {
                        Reservation r = lim.reserveN(t, Integer.parseInt(f[2]));
                        check(mismatches, where, "id", f[3], Integer.toString(reservations.size()));
                        reservations.add(r);
                        check(mismatches, where, "ok", f[4], r.ok() ? "1" : "0");
                        check(mismatches, where, "delay", f[5], Long.toString(r.delayFrom(t)));
                        break;
                    }
                    case "delay":
                        check(mismatches, where, "delay", f[3],
                                Long.toString(reservations.get(Integer.parseInt(f[2])).delayFrom(t)));
                        break;
                    case "cancel":
                        reservations.get(Integer.parseInt(f[2])).cancelAt(t);
                        break;
                    case "limit":
                        lim.setLimitAt(t, Double.parseDouble(f[2]));
                        break;
                    case "burst":
                        lim.setBurstAt(t, Integer.parseInt(f[2]));
                        break;
                    case "tokens":
                        break;
                    default:
                        throw new IllegalStateException("unknown operation in " + where);
                }
                double tokens = lim.tokensAt(t);
                double expected = Double.parseDouble(expectedTokens);
                if (Double.doubleToLongBits(tokens) != Double.doubleToLongBits(expected)) {
                    mismatches.add(where + ": tokens " + tokens + " != Go's " + expected
                            + " (diff " + (tokens - expected) + ")");
                }
                checked++;
            }
        }
        assertThat(sequences).as("sequences replayed").isGreaterThanOrEqualTo(100);
        assertThat(checked).as("calls replayed").isGreaterThanOrEqualTo(10_000);
        assertThat(mismatches).as("calls that disagree with Go, of %d", checked).isEmpty();
    }

    private static void check(List<String> mismatches, String where, String what, String expected, String actual) {
        if (!expected.equals(actual)) {
            mismatches.add(where + ": " + what + " " + actual + " != Go's " + expected);
        }
    }
}
