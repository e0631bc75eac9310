package dev.sluice.cli.report.internal;

import static dev.sluice.cli.report.internal.Html.coordinate;
import static dev.sluice.cli.report.internal.Html.escape;

/**
 * Writes one inline SVG image, element by element. Inline SVG needs no namespace declaration in an HTML5 page, so
 * the output references nothing outside itself. Not thread-safe; {@link #end()} once.
 */
public final class Svg {

    private final StringBuilder b = new StringBuilder(16 * 1024);

    /**
     * Opens an image of {@code width} x {@code height} pixels (it scales down with the page) described by
     * {@code label} for screen readers and as a tooltip.
     */
    public Svg(int width, int height, String label) {
        b.append("<svg class=\"chart\" viewBox=\"0 0 ").append(width).append(' ').append(height)
            .append("\" width=\"").append(width).append("\" height=\"").append(height)
            .append("\" role=\"img\" aria-label=\"").append(escape(label)).append("\">\n<title>")
            .append(escape(label)).append("</title>\n");
    }

    /** A filled rectangle with an optional tooltip ({@code null} for none). */
    public Svg rect(double x, double y, double width, double height, String fill, String tooltip) {
        b.append("<rect x=\"").append(coordinate(x)).append("\" y=\"").append(coordinate(y))
            .append("\" width=\"").append(coordinate(width)).append("\" height=\"").append(coordinate(height))
            .append("\" fill=\"").append(fill).append('"');
        return tooltip == null ? close("/>\n") : close("><title>" + escape(tooltip) + "</title></rect>\n");
    }

    /** A straight line; {@code dash} is an SVG dash array or {@code null} for a solid line. */
    public Svg line(double x1, double y1, double x2, double y2, String stroke, double width, String dash) {
        b.append("<line x1=\"").append(coordinate(x1)).append("\" y1=\"").append(coordinate(y1))
            .append("\" x2=\"").append(coordinate(x2)).append("\" y2=\"").append(coordinate(y2))
            .append("\" stroke=\"").append(stroke).append("\" stroke-width=\"").append(coordinate(width)).append('"');
        if (dash != null) {
            b.append(" stroke-dasharray=\"").append(dash).append('"');
        }
        return close("/>\n");
    }

    /** A line through {@code count} points of {@code xs}/{@code ys}; nothing for fewer than two points. */
    public Svg polyline(double[] xs, double[] ys, int count, String stroke, double width, String dash) {
        if (count < 2) {
            return this;
        }
        b.append("<polyline fill=\"none\" stroke=\"").append(stroke).append("\" stroke-width=\"")
            .append(coordinate(width)).append("\" stroke-linejoin=\"round\"");
        if (dash != null) {
            b.append(" stroke-dasharray=\"").append(dash).append('"');
        }
        b.append(" points=\"");
        for (int i = 0; i < count; i++) {
            b.append(i == 0 ? "" : " ").append(coordinate(xs[i])).append(',').append(coordinate(ys[i]));
        }
        return close("\"/>\n");
    }

    /** A filled circle with an optional tooltip. */
    public Svg circle(double cx, double cy, double r, String fill, String tooltip) {
        b.append("<circle cx=\"").append(coordinate(cx)).append("\" cy=\"").append(coordinate(cy))
            .append("\" r=\"").append(coordinate(r)).append("\" fill=\"").append(fill).append('"');
        return tooltip == null ? close("/>\n") : close("><title>" + escape(tooltip) + "</title></circle>\n");
    }

    /**
     * Text at ({@code x}, {@code y}); {@code anchor} is {@code start}, {@code middle} or {@code end};
     * {@code rotate} turns it by that many degrees around its anchor (0 for none).
     */
    public Svg text(double x, double y, String text, String anchor, String cssClass, int rotate) {
        b.append("<text x=\"").append(coordinate(x)).append("\" y=\"").append(coordinate(y))
            .append("\" text-anchor=\"").append(anchor).append("\" class=\"").append(cssClass).append('"');
        if (rotate != 0) {
            b.append(" transform=\"rotate(").append(rotate).append(' ').append(coordinate(x)).append(' ')
                .append(coordinate(y)).append(")\"");
        }
        return close(">" + escape(text) + "</text>\n");
    }

    /** Closes the image and returns its markup. */
    public String end() {
        b.append("</svg>\n");
        return b.toString();
    }

    private Svg close(String tail) {
        b.append(tail);
        return this;
    }
}
