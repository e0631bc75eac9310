package dev.sluice.cli.address;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a token file holds, and that no message about one quotes a token. */
class TokenFileTest {

    @TempDir
    Path dir;

    @Test
    void tokensAreTheLinesThatAreNotBlankOrComments() throws IOException {
        Path f = Files.writeString(dir.resolve("tokens"), "# ops team\r\n  alpha-1 \r\n\r\n#beta-0 retired\nbeta-2\n");
        TokenFile tokens = TokenFile.read("--auth-token-file", f);
        assertThat(tokens.count()).isEqualTo(2);
        assertThat(tokens.lineOf("alpha-1")).isEqualTo(2);
        assertThat(tokens.lineOf("beta-2")).isEqualTo(5);
        assertThat(tokens.lineOf("#beta-0 retired")).isEqualTo(-1);
        assertThat(tokens.lineOf("alpha")).as("a prefix is not a token").isEqualTo(-1);
        assertThat(tokens.lineOf(" alpha-1 ")).as("the client's token is compared as sent").isEqualTo(-1);
    }

    @Test
    void aClientSendsTheOneToken() throws IOException {
        Path one = Files.writeString(dir.resolve("one"), "alpha-1\n");
        assertThat(TokenFile.read("--auth-token-file", one).single("--auth-token-file")).isEqualTo("alpha-1");
        Path two = Files.writeString(dir.resolve("two"), "alpha-1\nbeta-2\n");
        assertThatThrownBy(() -> TokenFile.read("--auth-token-file", two).single("--auth-token-file"))
            .hasMessage("--auth-token-file " + two + " holds 2 tokens; a client sends one: give it a file with one"
                + " line");
    }

    @Test
    void unusableFilesNameTheFileAndNeverTheContent() throws IOException {
        Path empty = Files.writeString(dir.resolve("empty"), "# secret-in-a-comment\n \n");
        assertThatThrownBy(() -> TokenFile.read("--auth-token-file", empty))
            .hasMessage("--auth-token-file " + empty + " holds no token (one per line; blank lines and lines"
                + " starting with # do not count)");
        assertThatThrownBy(() -> TokenFile.read("--auth-token-file", dir.resolve("missing")))
            .hasMessage("--auth-token-file " + dir.resolve("missing") + ": no such file");
        Path binary = Files.write(dir.resolve("binary"), new byte[] {'s', 'e', 'c', (byte) 0xC3, 'x'});
        assertThatThrownBy(() -> TokenFile.read("--auth-token-file", binary))
            .hasMessage("--auth-token-file " + binary + ": not UTF-8 text");
        assertThatThrownBy(() -> TokenFile.read("--auth-token-file", dir))
            .hasMessageStartingWith("--auth-token-file " + dir + ": cannot read it (a directory)");
    }
}
