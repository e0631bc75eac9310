#!/usr/bin/env bash
# Calls `sluice echo-server --grpc-address` with grpcurl, a gRPC client written in Go (grpc-go) that knows the
# service only through server reflection: the bridge checked by a peer that is neither Java nor ours. Lists and
# describes the services, calls the four Echo methods, a failure and a deadline, and checks each answer.
#
# Needs the built CLI (sluice-cli/target/sluice.jar, made by `mvn verify`) and `go` with the Go module proxy (to build
# grpcurl v1.9.4 into target/go-bin once). Without go it prints SKIP and exits 0.
#
# v1.9.4, not v1.9.3: v1.9.3 is built on grpc-go 1.61, which reports a deadline as "Code: Internal, unexpected EOF"
# when grpc-java's RST_STREAM (sent at the server's copy of the deadline) lands in the middle of a reply message;
# grpc-go fixed that in 1.73 (grpc/grpc-go#8281) and v1.9.4 is built on 1.83.
#
# Usage: scripts/check-grpcurl.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jar="$root/sluice-cli/target/sluice.jar"
version=v1.9.4
bin="$root/target/go-bin/grpcurl-$version"
grpcurl="$bin/grpcurl"

if ! command -v go >/dev/null 2>&1; then
    echo "SKIP check-grpcurl: no 'go' on PATH; echo-server's gRPC side was NOT checked with a Go client" >&2
    exit 0
fi
if [ ! -f "$jar" ]; then
    echo "FAIL check-grpcurl: $jar is missing: run mvn verify (or bin/test) first" >&2
    exit 1
fi
if [ ! -x "$grpcurl" ]; then
    mkdir -p "$bin"
    GOBIN="$bin" GOFLAGS=-mod=mod GOTOOLCHAIN=local go install "github.com/fullstorydev/grpcurl/cmd/grpcurl@$version"
fi

log="$(mktemp "${TMPDIR:-/tmp}/check-grpcurl.XXXXXX")"
java -jar "$jar" echo-server --address 127.0.0.1:0 --grpc-address 127.0.0.1:0 >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -f "$log"' EXIT

port=""
for _ in $(seq 1 300); do
    port="$(sed -n 's/.*serving gRPC on 127\.0\.0\.1:\([0-9]*\) .*/\1/p' "$log" | head -n 1)"
    [ -n "$port" ] && break
    kill -0 "$server" 2>/dev/null || { cat "$log" >&2; echo "FAIL check-grpcurl: echo-server exited" >&2; exit 1; }
    sleep 0.1
done
if [ -z "$port" ]; then
    cat "$log" >&2
    echo "FAIL check-grpcurl: echo-server did not start serving gRPC within 30 s" >&2
    exit 1
fi
target="127.0.0.1:$port"

fail() {
    echo "FAIL check-grpcurl: $1" >&2
    head -n 20 <<<"$2" >&2 # a here-string, not a pipe: under pipefail a pipe into head would end in SIGPIPE
    exit 1
}

# expect NAME OUTPUT PATTERN...: every pattern (grep -E) must be in OUTPUT.
expect() {
    local name="$1" out="$2"
    shift 2
    for pattern in "$@"; do
        grep -Eq -- "$pattern" <<<"$out" || fail "$name: expected /$pattern/ in" "$out"
    done
}

g() { "$grpcurl" -plaintext "$@" 2>&1 || true; }

out="$(g "$target" list)"
expect list "$out" '^sluice\.echo\.v1\.Echo$' '^grpc\.health\.v1\.Health$' '^grpc\.reflection\.v1\.ServerReflection$'

out="$(g "$target" describe sluice.echo.v1.Echo)"
expect describe "$out" 'rpc Say \( \.sluice\.echo\.v1\.EchoRequest \) returns \( \.sluice\.echo\.v1\.EchoReply \)' \
    'rpc Chat \( stream \.sluice\.echo\.v1\.EchoRequest \) returns \( stream \.sluice\.echo\.v1\.EchoReply \)'

out="$(g -d '{"text":"hi","data":"AQI="}' "$target" sluice.echo.v1.Echo/Say)"
expect Say "$out" '"text": "hi"' '"data": "AQI="'

out="$(g -d '{"text":"r","count":3}' "$target" sluice.echo.v1.Echo/Repeat)"
expect Repeat "$out" '"index": 1' '"index": 2'
[ "$(grep -c '"text": "r"' <<<"$out")" = 3 ] || fail "Repeat: expected 3 replies" "$out"

out="$(g -d '{"text":"a"} {"text":"b"} {"text":"c"}' "$target" sluice.echo.v1.Echo/Collect)"
expect Collect "$out" '"text": "a,b,c"' '"index": 3'

out="$(g -d '{"text":"x"} {"text":"y"}' "$target" sluice.echo.v1.Echo/Chat)"
expect Chat "$out" '"text": "x"' '"text": "y"' '"index": 1'

out="$(g -d '{"text":"fail:NOT_FOUND:nope"}' "$target" sluice.echo.v1.Echo/Say)"
expect 'Say fail:NOT_FOUND:nope' "$out" 'Code: NotFound' 'Message: nope'

out="$(g -max-time 0.5 -d '{"text":"r","count":1000000}' "$target" sluice.echo.v1.Echo/Repeat)"
expect 'Repeat of 1,000,000 with a 0.5 s deadline' "$out" 'Code: DeadlineExceeded'

out="$(g "$target" grpc.health.v1.Health/Check)"
expect health "$out" '"status": "SERVING"'

# The deadline reached the server as a cancellation: its per-second line counts it.
for _ in $(seq 1 50); do
    grep -q 'grpc calls=[0-9]* cancelled=1' "$log" && break
    sleep 0.1
done
grep -q 'grpc calls=[0-9]* cancelled=1' "$log" || fail "the server did not count the deadline's cancellation" "$(cat "$log")"

echo "OK check-grpcurl: grpcurl (grpc-go) listed, described and called all four Echo methods of echo-server" \
    "--grpc-address; NOT_FOUND and a deadline arrived as such, health SERVING, the cancellation counted"
