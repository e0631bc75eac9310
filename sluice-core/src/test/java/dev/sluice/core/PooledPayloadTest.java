package dev.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Runs {@link PooledPayloadChecks} in a JVM with the payload pool on (these tests run with it off). */
class PooledPayloadTest {

    @Test
    void borrowingPayloadsKeepTheFramesCountRightWhenThePoolReusesThem() throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(List.of(java.toString(), "-Dsluice.payload.debug=false",
            "-Dio.netty.leakDetection.level=paranoid", "-cp", System.getProperty("java.class.path"),
            PooledPayloadChecks.class.getName()))
            .redirectErrorStream(true)
            .start();
        boolean ended = child.waitFor(60, TimeUnit.SECONDS);
        if (!ended) {
            child.destroyForcibly();
        }
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(ended).as("the checks ended within 60 s; output: %s", output).isTrue();
        assertThat(child.exitValue()).as(output).isZero();
        assertThat(output).contains("ok");
    }
}
