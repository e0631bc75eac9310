#!/usr/bin/env bash
# Opens a Sluice HTML report (dev.sluice.cli.report.HtmlReport) in headless Chromium and checks that its charts
# really render, not just that the file parses:
#   1. the DOM Chromium built holds as many <svg> charts as the file, with bars (<rect>) and lines (<polyline>);
#   2. a screenshot is not blank (enough non-white pixels), and every series colour the charts use (the saturated
#      ones of sluice-cli/.../report/internal/Palette.java found in the DOM) shows up in it.
# The screenshot is kept (path printed) for a person to look at.
#
# Installs Debian's `chromium` package if no Chromium is on PATH (needs root and apt-get).
#
# Usage: scripts/check-report-renders.sh [report.html [screenshot.png]]
#   Without arguments, checks both synthetic samples in sluice-cli/target/report-sample/ (mvn -B -pl sluice-cli
#   verify, or -Dtest='HtmlReportTest,SlaReportTest', writes them): sluice-report-sample.html, the three-scenario
#   load report of HtmlReportTest, and sla-report-sample.html, the SLA report (sluice sla) of SlaReportTest.
#   A report of a real run works too: scripts/check-report-renders.sh sla-report.html.
#   screenshot.png defaults to the report's path with .png instead of .html.
# Environment: REPORT_WINDOW=1280,2400 sets the browser window (width,height) for the screenshot.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ "$#" -eq 0 ]; then
    samples="$root/sluice-cli/target/report-sample"
    status=0
    for sample in "$samples/sluice-report-sample.html" "$samples/sla-report-sample.html"; do
        "${BASH_SOURCE[0]}" "$sample" || status=1
    done
    exit "$status"
fi
report="$1"
palette="$root/sluice-cli/src/main/java/dev/sluice/cli/report/internal/Palette.java"
window="${REPORT_WINDOW:-1280,2400}"

if [ ! -f "$report" ]; then
    echo "FAIL check-report-renders: no report at $report (the samples are written by HtmlReportTest and" \
        "SlaReportTest: mvn -B -pl sluice-cli verify)" >&2
    exit 1
fi
report="$(cd "$(dirname "$report")" && pwd)/$(basename "$report")"
shot="${2:-${report%.html}.png}"

browser=""
for candidate in chromium chromium-browser google-chrome; do
    if command -v "$candidate" >/dev/null 2>&1; then
        browser="$candidate"
        break
    fi
done
if [ -z "$browser" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "check-report-renders: installing chromium (apt-get)..." >&2
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
        browser=chromium
    else
        echo "FAIL check-report-renders: no chromium on PATH and cannot install it (needs root and apt-get)" >&2
        exit 1
    fi
fi

profile="$(mktemp -d "${TMPDIR:-/tmp}/report-chromium.XXXXXX")"
dom="$(mktemp "${TMPDIR:-/tmp}/report-dom.XXXXXX")"
log="$(mktemp "${TMPDIR:-/tmp}/report-chromium-log.XXXXXX")"
trap 'rm -rf "$profile" "$dom" "$log"' EXIT
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
    --disable-component-update --disable-sync --user-data-dir="$profile" --hide-scrollbars
    --force-device-scale-factor=1)
url="file://$report"

if ! timeout 120 "$browser" "${flags[@]}" --dump-dom "$url" >"$dom" 2>"$log"; then
    tail -n 20 "$log" >&2
    echo "FAIL check-report-renders: $browser --dump-dom failed on $report" >&2
    exit 1
fi
rm -f "$shot"
if ! timeout 120 "$browser" "${flags[@]}" --screenshot="$shot" --window-size="$window" "$url" >"$log" 2>&1 \
    || [ ! -s "$shot" ]; then
    tail -n 20 "$log" >&2
    echo "FAIL check-report-renders: $browser --screenshot wrote no image for $report" >&2
    exit 1
fi

python3 - "$report" "$dom" "$shot" "$palette" <<'PY'
import re
import struct
import sys
import zlib

report_path, dom_path, shot_path, palette_path = sys.argv[1:5]
source = open(report_path, encoding='utf-8').read()
dom = open(dom_path, encoding='utf-8', errors='replace').read()
failures = []

def count(pattern, text):
    return len(re.findall(pattern, text))

# 1. The DOM Chromium built.
svg_file, svg_dom = count(r'<svg[\s>]', source), count(r'<svg[\s>]', dom)
rects, lines, texts = count(r'<rect[\s>]', dom), count(r'<polyline[\s>]', dom), count(r'<text[\s>]', dom)
if svg_file == 0:
    failures.append('the report holds no <svg> chart')
if svg_dom != svg_file:
    failures.append('the browser built %d <svg> of the %d in the file' % (svg_dom, svg_file))
if rects == 0 or texts == 0:
    failures.append('no bars (<rect>: %d) or no labels (<text>: %d) in the charts' % (rects, texts))

# 2. The screenshot: a small PNG decoder (8-bit RGB/RGBA, as Chromium writes), no third-party module needed.
def decode(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise SystemExit('FAIL check-report-renders: %s is not a PNG' % path)
    pos, idat, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            header = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat.append(body)
        pos += 12 + length
    width, height, depth, color, _, _, interlace = header
    if depth != 8 or color not in (2, 6) or interlace:
        raise SystemExit('FAIL check-report-renders: unsupported PNG (depth %d, colour type %d, interlace %d)'
                         % (depth, color, interlace))
    bpp = 3 if color == 2 else 4
    raw = zlib.decompress(b''.join(idat))
    stride = width * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(height):
        start = y * (stride + 1)
        kind = raw[start]
        line = bytearray(raw[start + 1:start + 1 + stride])
        if kind == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif kind == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif kind == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif kind == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, bpp, rows

width, height, bpp, rows = decode(shot_path)
palette = re.findall(r'String (\w+) = "#([0-9a-fA-F]{6})"', open(palette_path, encoding='utf-8').read())
# Greys also come out of anti-aliased text, so only saturated series colours prove that a chart was painted.
targets = {}
for name, hexcolor in palette:
    rgb = tuple(int(hexcolor[i:i + 2], 16) for i in (0, 2, 4))
    if max(rgb) - min(rgb) > 40 and re.search('"#%s"' % hexcolor, dom, re.IGNORECASE):
        targets[name] = rgb
found = dict.fromkeys(targets, 0)
inked = 0
for line in rows:
    for x in range(0, width * bpp, bpp):
        r, g, b = line[x], line[x + 1], line[x + 2]
        if r < 235 or g < 235 or b < 235:
            inked += 1
            for name, (tr, tg, tb) in targets.items():
                if abs(r - tr) + abs(g - tg) + abs(b - tb) <= 24:
                    found[name] += 1
share = inked / float(width * height)
if share < 0.02:
    failures.append('the screenshot is nearly blank: %.2f%% of its pixels are not white' % (100 * share))
if not targets:
    failures.append('none of the palette colours of %s is used by the charts' % palette_path)
for name, pixels in sorted(found.items()):
    if pixels < 100:
        failures.append('series colour %s (#%02x%02x%02x) covers %d pixels of the screenshot, expected >= 100'
                        % ((name,) + targets[name] + (pixels,)))

summary = ('%d charts (%d bars, %d lines, %d labels) in the DOM; screenshot %dx%d, %.1f%% inked; series colour'
           ' pixels: %s' % (svg_dom, rects, lines, texts, width, height, 100 * share,
                            ', '.join('%s %d' % kv for kv in sorted(found.items()))))
if failures:
    for f in failures:
        print('FAIL check-report-renders: ' + f, file=sys.stderr)
    print('  (' + summary + ')', file=sys.stderr)
    sys.exit(1)
print('OK check-report-renders: ' + summary)
print('  screenshot: ' + shot_path)
PY
