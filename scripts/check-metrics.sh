#!/usr/bin/env bash
# Acceptance check for issue 19: "a Prometheus scrape of a running proxy shows the metrics above moving under
# `sluice load`". Starts two leasing `sluice server`s and a rate-limited `sluice proxy --metrics-address` on free
# loopback ports, scrapes the proxy, runs `sluice load` through it, scrapes again and prints each Sluice series
# that moved, before -> after. Fails (exit 1) if the request counters did not move by what `load` sent.
#
# About 30 seconds. Usage: scripts/check-metrics.sh [RPS] [DURATION]   (default 400 and 5s)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rps="${1:-400}"
duration="${2:-5s}"
jar="$root/sluice-cli/target/sluice.jar"

# bin/sluice builds the CLI jar when it is missing or older than the sources.
"$root/bin/sluice" --version >/dev/null

work="$(mktemp -d "${TMPDIR:-/tmp}/sluice-metrics-check.XXXXXX")"
pids=()
cleanup() {
    for p in "${pids[@]}"; do
        kill "$p" 2>/dev/null || true
        wait "$p" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap cleanup EXIT

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# Waits for "PATTERN" in a log; prints the log and fails after 30 s.
await_line() {
    local log="$1" pattern="$2"
    for _ in $(seq 1 300); do
        if grep -q "$pattern" "$log"; then
            return 0
        fi
        sleep 0.1
    done
    echo "timed out waiting for '$pattern' in $log:" >&2
    cat "$log" >&2
    exit 1
}

s1="$(free_port)"; s2="$(free_port)"; proxy="$(free_port)"; metrics="$(free_port)"
for port in "$s1" "$s2"; do
    java -jar "$jar" server --address "127.0.0.1:$port" --lease-allowed 150 --lease-ttl 1s \
        >"$work/server-$port.log" 2>&1 &
    pids+=($!)
    await_line "$work/server-$port.log" "server listening"
done
java -jar "$jar" proxy --address "127.0.0.1:$proxy" --servers "127.0.0.1:$s1,127.0.0.1:$s2" \
    --rate-limit "$((rps * 4 / 5))/s" --burst 20 --metrics-address "127.0.0.1:$metrics" >"$work/proxy.log" 2>&1 &
pids+=($!)
await_line "$work/proxy.log" "connected servers: \[.*,.*\] of 2"

url="http://127.0.0.1:$metrics/metrics"
curl -fsS "$url" | grep '^sluice_' | grep -v '_bucket{' >"$work/before.txt"
java -jar "$jar" load --target "127.0.0.1:$proxy" --rps "$rps" --duration "$duration" --json >"$work/load.json" \
    2>"$work/load.log" || true
sleep 1.5  # the balancer's gauges are refreshed every second
curl -fsS "$url" | grep '^sluice_' | grep -v '_bucket{' >"$work/after.txt"

echo "proxy on 127.0.0.1:$proxy, metrics at $url; load: $rps requests/s for $duration"
echo
echo "series that moved (before -> after):"
python3 - "$work/before.txt" "$work/after.txt" "$work/load.json" <<'PY'
import json, sys
def read(path):
    out = {}
    for line in open(path):
        name, value = line.rsplit(" ", 1)
        out[name] = float(value)
    return out
before, after = read(sys.argv[1]), read(sys.argv[2])
for name in sorted(after):
    b, a = before.get(name, 0.0), after[name]
    if a != b:
        print(f"  {name}  {b:g} -> {a:g}")
run = json.load(open(sys.argv[3]))["run"]
sent = run.get("sent")
served = sum(a - before.get(n, 0.0) for n, a in after.items() if n.startswith("sluice_requests_total{"))
print()
print(f"load sent {sent} requests; sluice_requests_total moved by {served:g}")
if sent is None or served != sent:
    print("FAILED: the request counters did not move by what load sent", file=sys.stderr)
    sys.exit(1)
PY
