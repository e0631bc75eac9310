package dev.sluice.rpc.compiler;

import java.util.List;

/** A Java file being written: lines, blank lines and Javadoc blocks at an indentation. Not thread-safe. */
final class JavaSource {

    private final StringBuilder text = new StringBuilder(4096);
    private int javadocIndent;

    /** Appends {@code line} and a newline. */
    JavaSource line(String line) {
        text.append(line).append('\n');
        return this;
    }

    /** Appends text as is. */
    JavaSource raw(String s) {
        text.append(s);
        return this;
    }

    JavaSource blank() {
        text.append('\n');
        return this;
    }

    /** Sets the indentation, in levels of four spaces, of the next {@link #javadoc} block. */
    JavaSource indent(int levels) {
        javadocIndent = levels;
        return this;
    }

    /** Appends a Javadoc block of {@code lines} at the current indentation, then resets it to zero. */
    JavaSource javadoc(List<String> lines) {
        String pad = "    ".repeat(javadocIndent);
        javadocIndent = 0;
        if (lines.size() == 1) {
            return line(pad + "/** " + lines.get(0) + " */");
        }
        line(pad + "/**");
        for (String l : lines) {
            line(l.isEmpty() ? pad + " *" : pad + " * " + l);
        }
        return line(pad + " */");
    }

    @Override
    public String toString() {
        return text.toString();
    }
}
