#!/usr/bin/env bash
# Runs the echo server's browser page (sluice-cli/.../browser/, bundled from browser/) in headless Chromium against a
# real `sluice echo-server` on WebSocket, and checks what the page reports:
#   1. request-response: the echo of the data and metadata it sent;
#   2. request-stream with backpressure: the page asked in batches (request(n)), received exactly the elements it
#      asked for, each the payload it sent, none while it held off asking and none after it cancelled.
#
# Steps: builds the CLI (mvn package of sluice-cli and what it needs; no install), then twice, once with
# `sluice echo-server --address ws://127.0.0.1:PORT/rsocket` and once with `wss://` (a certificate for 127.0.0.1 made
# on the spot with openssl, which Chromium is told to accept by its key's hash, --ignore-certificate-errors-spki-list):
# starts the server on a free loopback port, opens http(s)://127.0.0.1:PORT/ with playwright-core driving the
# system's Chromium (browser/run-page.mjs), checks the results, stops the server. Exits non-zero with a one-line
# reason on any failure.
#
# Installs Debian's `chromium` package if no Chromium is on PATH (needs root and apt-get), and browser/'s npm packages
# (npm ci, from browser/package-lock.json) if they are not there; needs Java 17, Maven, Node.js and npm.
#
# Usage: scripts/check-browser.sh
# Environment: CHECK_BROWSER_BUILD=0 uses the sluice-cli/target/sluice.jar already built.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fail() {
    echo "FAIL check-browser: $*" >&2
    exit 1
}

browser=""
for candidate in chromium chromium-browser google-chrome; do
    if command -v "$candidate" >/dev/null 2>&1; then
        browser="$(command -v "$candidate")"
        break
    fi
done
if [ -z "$browser" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "check-browser: installing chromium (apt-get)..." >&2
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
        browser="$(command -v chromium)" || fail "apt-get installed no chromium"
    else
        fail "no chromium on PATH and cannot install it (needs root and apt-get)"
    fi
fi
command -v node >/dev/null 2>&1 || fail "no node on PATH (Node.js drives the browser through playwright-core)"
if [ ! -d "$root/browser/node_modules/playwright-core" ]; then
    echo "check-browser: installing browser/'s npm packages (npm ci)..." >&2
    (cd "$root/browser" && npm ci --no-audit --no-fund >/dev/null 2>&1) \
        || fail "npm ci in browser/ failed (run it there to see why)"
fi

jar="$root/sluice-cli/target/sluice.jar"
build_log="$(mktemp "${TMPDIR:-/tmp}/check-browser-build.XXXXXX")"
trap 'rm -f "$build_log"' EXIT
if [ "${CHECK_BROWSER_BUILD:-1}" != 0 ]; then
    echo "check-browser: building sluice-cli (mvn package)..." >&2
    # Style is the verify build's business, not this check's: Checkstyle is skipped here.
    if ! (cd "$root" && mvn -q -B -ntp -DskipTests -Dcheckstyle.skip package -pl sluice-cli -am) >"$build_log" 2>&1; then
        fail "mvn -DskipTests package -pl sluice-cli -am failed: $(grep -m 1 '\[ERROR\]' "$build_log" || tail -n 1 "$build_log")"
    fi
fi
[ -f "$jar" ] || fail "no $jar (build it: mvn -DskipTests package -pl sluice-cli -am)"

work="$(mktemp -d "${TMPDIR:-/tmp}/check-browser.XXXXXX")"
server_pid=""
stop_server() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid" 2>/dev/null || true
        # The server drains for up to its --drain-timeout (1 s here) before it exits.
        for _ in $(seq 1 50); do
            kill -0 "$server_pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -9 "$server_pid" 2>/dev/null || true
    fi
    server_pid=""
}
cleanup() {
    stop_server
    rm -rf "$work" "$build_log"
}
trap cleanup EXIT

# check SCHEME [echo-server TLS options...]: one run of the page against a new echo server.
check() {
    local scheme="$1" page_scheme=http dir="$work/$1" port
    shift
    [ "$scheme" = wss ] && page_scheme=https
    mkdir -p "$dir/profile"
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
    java -jar "$jar" echo-server --address "$scheme://127.0.0.1:$port/rsocket" --drain-timeout 1s "$@" \
        >"$dir/server.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 1 300); do
        grep -q "echo-server listening on" "$dir/server.log" && break
        kill -0 "$server_pid" 2>/dev/null || fail "$scheme: echo-server exited at start: $(tail -n 1 "$dir/server.log")"
        sleep 0.1
    done
    grep -q "echo-server listening on" "$dir/server.log" || fail "$scheme: echo-server did not start within 30 s"

    if ! CHROMIUM="$browser" CHROMIUM_PROFILE="$dir/profile" CHROMIUM_ARGS="${chromium_args:-}" \
        node "$root/browser/run-page.mjs" "$page_scheme://127.0.0.1:$port/" 30000 >"$dir/results.json" \
        2>"$dir/page.err"; then
        fail "$scheme: $(tail -n 1 "$dir/page.err")"
    fi
    python3 - "$dir/results.json" <<'PY'
import json
import sys

r = json.load(open(sys.argv[1]))
failures = []


def expect(what, got, want):
    if got != want:
        failures.append('%s: expected %r, got %r' % (what, want, got))


expect('page state', r.get('state'), 'done')
if r.get('error'):
    failures.append('the page failed: %s' % r['error'])
rr = r.get('requestResponse') or {}
expect('request-response data echo', rr.get('data'), 'hello from the browser')
expect('request-response metadata echo', rr.get('metadata'), 'page-metadata')
s = r.get('stream') or {}
total, batch = s.get('total'), s.get('batch')
expect('request-stream elements received', s.get('received'), total)
expect('request-stream elements', s.get('elements'), ['tick'] * (total or 0))
# Bounded demand: the page asked batch by batch, up to total and no more, and nothing came that it had not asked for.
expect('request(n) calls', s.get('requests'), [min(batch, total - i) for i in range(0, total, batch)]
       if isinstance(total, int) and isinstance(batch, int) else 'batches of the page\'s batch size')
expect('total requested', s.get('requested'), total)
expect('elements beyond demand', s.get('overrun'), 0)
expect('elements while the page held off asking', s.get('arrivedWhilePaused'), 0)
expect('elements after the cancel', s.get('arrivedAfterCancel'), 0)
expect('stream cancelled by the page', s.get('cancelled'), True)
problems = (r.get('browser') or {}).get('problems') or []
if problems:
    failures.append('the browser reported: %s' % '; '.join(problems))
if failures:
    print('FAIL check-browser: ' + '; '.join(failures), file=sys.stderr)
    sys.exit(1)
print('OK check-browser: Chromium %s, rsocket-js over %s: request-response echoed data %r and metadata %r;'
      ' request-stream requested %s = %d, received %d x %r, 0 beyond demand, 0 while held off for %d ms,'
      ' 0 after cancel' % ((r.get('browser') or {}).get('version'), r['url'], rr['data'], rr['metadata'],
                           ' + '.join(str(n) for n in s['requests']), s['requested'], s['received'],
                           s['elements'][0], s['pauseMs']))
PY

    # The server saw them too: its counters line names one request-response and one request-stream.
    for _ in $(seq 1 30); do
        grep -q "request-response=1 request-stream=1" "$dir/server.log" && break
        sleep 0.1
    done
    grep -q "request-response=1 request-stream=1" "$dir/server.log" \
        || fail "$scheme: the echo server did not log request-response=1 request-stream=1: $(tail -n 1 "$dir/server.log")"
    stop_server
}

check ws

command -v openssl >/dev/null 2>&1 || fail "no openssl on PATH (it makes the wss:// run's certificate)"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 -keyout "$work/key.pem" -out "$work/cert.pem" >/dev/null 2>&1 \
    || fail "openssl could not make a certificate for the wss:// run"
spki="$(openssl x509 -in "$work/cert.pem" -pubkey -noout | openssl pkey -pubin -outform der \
    | openssl dgst -sha256 -binary | base64)"
chromium_args="--ignore-certificate-errors-spki-list=$spki" \
    check wss --tls-cert "$work/cert.pem" --tls-key "$work/key.pem"
