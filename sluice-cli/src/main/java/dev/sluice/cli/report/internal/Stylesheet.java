package dev.sluice.cli.report.internal;

/** The reports' style sheet: one inline {@code <style>}, so that a report is a single self-contained file. */
public final class Stylesheet {

    /** The CSS of every report. */
    public static final String CSS = """
        body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #212529;
          margin: 24px auto; max-width: 1260px; padding: 0 16px; }
        h1 { font-size: 24px; margin: 0 0 8px; }
        h2 { font-size: 19px; margin: 30px 0 6px; border-top: 1px solid #dee2e6; padding-top: 18px; }
        p { margin: 4px 0 10px; }
        dl.run { display: grid; grid-template-columns: max-content auto; gap: 2px 12px; margin: 0 0 12px;
          color: #495057; font-size: 13px; }
        dl.run dt { font-weight: 600; }
        dl.run dd { margin: 0; }
        table { border-collapse: collapse; margin: 10px 0 14px; font-variant-numeric: tabular-nums; }
        th, td { border: 1px solid #dee2e6; padding: 5px 12px; text-align: right; }
        th { background: #f1f3f5; font-weight: 600; }
        td:first-child, th:first-child { text-align: left; }
        table.summary td, table.summary th { font-size: 16px; padding: 7px 16px; }
        .facts { color: #495057; }
        .charts { display: flex; flex-wrap: wrap; gap: 12px; }
        svg.chart { max-width: 100%; height: auto; background: #fff; border: 1px solid #e9ecef; }
        svg .title { font: 600 13px system-ui, sans-serif; fill: #212529; }
        svg .tick { font: 11px system-ui, sans-serif; fill: #495057; }
        svg .axis { font: 12px system-ui, sans-serif; fill: #495057; }
        svg .legend { font: 12px system-ui, sans-serif; fill: #212529; }
        footer { margin-top: 36px; color: #6c757d; font-size: 13px; }
        .headline { font-size: 17px; background: #f1f3f5; border-left: 4px solid #1971c2; padding: 8px 14px;
          margin: 12px 0; }
        table.steps td, table.steps th { padding: 4px 10px; }
        """;

    private Stylesheet() {
    }
}
