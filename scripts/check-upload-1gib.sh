#!/usr/bin/env bash
# Acceptance check for issue 6: "A 1 GiB upload through `sluice upload` lands byte-identical (checksum) with the
# server at -Xmx128m". Starts `sluice file-server` at -Xmx128m on a free loopback port with a temporary directory,
# uploads a file of random bytes with `bin/sluice upload` (the client at -Xmx128m too), compares the sha256sum of
# both files, prints the elapsed time, the rate and the server's peak resident memory, and cleans up.
#
# Heavy (writes twice the size to $TMPDIR and moves it over loopback): run it by hand, not in CI.
#
# Usage: scripts/check-upload-1gib.sh [SIZE]   (SIZE as `head -c` reads it; default 1G)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
size="${1:-1G}"
jar="$root/sluice-cli/target/sluice.jar"

# bin/sluice builds the CLI jar when it is missing or older than the sources.
"$root/bin/sluice" --version >/dev/null

work="$(mktemp -d "${TMPDIR:-/tmp}/sluice-upload-check.XXXXXX")"
server_pid=""
cleanup() {
    if [ -n "$server_pid" ]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

mkdir "$work/served"
head -c "$size" /dev/urandom >"$work/upload.bin"
bytes="$(stat -c %s "$work/upload.bin")"

java -Xmx128m -jar "$jar" file-server --address 127.0.0.1:0 --dir "$work/served" >"$work/server.log" 2>&1 &
server_pid=$!

# The server logs "file-server listening on tcp://127.0.0.1:PORT (plaintext), ..." once bound (port 0 = a free one).
port=""
for _ in $(seq 1 300); do
    port="$(sed -n 's/.*file-server listening on tcp:\/\/[^ ]*:\([0-9][0-9]*\) .*/\1/p' "$work/server.log" | head -n 1)"
    [ -n "$port" ] && break
    if ! kill -0 "$server_pid" 2>/dev/null; then
        cat "$work/server.log" >&2
        echo "FAIL check-upload-1gib: the file server exited before listening" >&2
        exit 1
    fi
    sleep 0.1
done
if [ -z "$port" ]; then
    cat "$work/server.log" >&2
    echo "FAIL check-upload-1gib: the file server did not log its port within 30 s" >&2
    exit 1
fi

start="$(date +%s.%N)"
SLUICE_JAVA_OPTS="-Xmx128m" "$root/bin/sluice" upload --target "127.0.0.1:$port" "$work/upload.bin" \
    --name upload.bin
end="$(date +%s.%N)"

server_peak_rss="$(awk '/^VmHWM/ {print $2 " " $3}' "/proc/$server_pid/status" 2>/dev/null || echo "unknown")"
sent="$(sha256sum <"$work/upload.bin" | cut -d ' ' -f 1)"
stored="$(sha256sum <"$work/served/upload.bin" | cut -d ' ' -f 1)"
leftovers="$(find "$work/served" -name '.sluice-upload-*' | wc -l)"

elapsed="$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", e - s }')"
rate="$(awk -v s="$start" -v e="$end" -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 / (e - s) }')"

if [ "$sent" != "$stored" ]; then
    echo "FAIL check-upload-1gib: sha256 sent $sent, stored $stored" >&2
    exit 1
fi
if [ "$leftovers" != "0" ]; then
    echo "FAIL check-upload-1gib: $leftovers temporary file(s) left in the served directory" >&2
    exit 1
fi
echo "OK check-upload-1gib: $bytes bytes stored byte-identical (sha256 $sent) by a file server at -Xmx128m" \
    "(peak RSS $server_peak_rss); upload took $elapsed s including client JVM start = $rate MB/s"
