#!/usr/bin/env bash
# Regenerates the rate limiter's test vectors with Go's golang.org/x/time/rate (the oracle in
# sluice-limits/src/test/go/rateoracle) and fails with a diff if they differ from the committed
# sluice-limits/src/test/resources/rate-vectors.txt, which RateOracleTest replays against the Java port.
#
# Needs `go` on PATH (and the Go module proxy, or a module cache holding golang.org/x/time v0.16.0). Without go,
# or on an architecture other than amd64 (where Go may fuse multiply-adds and change low bits), it prints SKIP
# and exits 0.
#
# Usage: scripts/check-rate-vectors.sh [--write]   (--write replaces the committed vectors)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
oracle="$root/sluice-limits/src/test/go/rateoracle"
committed="$root/sluice-limits/src/test/resources/rate-vectors.txt"

if ! command -v go >/dev/null 2>&1; then
    echo "SKIP check-rate-vectors: no 'go' on PATH; the rate limiter's Go oracle vectors were NOT checked" >&2
    exit 0
fi

export GOFLAGS=-mod=mod
export GOTOOLCHAIN=local

arch="$(go env GOARCH)"
if [ "$arch" != "amd64" ]; then
    echo "SKIP check-rate-vectors: GOARCH=$arch; the vectors are defined by amd64 float arithmetic" >&2
    exit 0
fi

fresh="$(mktemp "${TMPDIR:-/tmp}/rate-vectors.XXXXXX")"
trap 'rm -f "$fresh"' EXIT

(cd "$oracle" && go run . -out "$fresh")

if [ "${1:-}" = "--write" ]; then
    cp "$fresh" "$committed"
    echo "check-rate-vectors: wrote $committed ($(wc -l <"$committed") lines)"
    exit 0
fi

if ! diff -u "$committed" "$fresh" >"$fresh.diff"; then
    head -n 60 "$fresh.diff" >&2
    echo "FAIL check-rate-vectors: $committed differs from what Go writes now (first 60 lines of the diff above);" \
        "if the oracle changed on purpose, run scripts/check-rate-vectors.sh --write" >&2
    rm -f "$fresh.diff"
    exit 1
fi
rm -f "$fresh.diff"
echo "OK check-rate-vectors: $(grep -vc '^#' "$committed") vectors identical to Go's"
