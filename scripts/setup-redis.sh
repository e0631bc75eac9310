#!/usr/bin/env bash
# Makes sure `redis-server` is on PATH, for the tests of sluice-limits-redis, which start their own server on a free
# loopback port. Installs Debian's package when it is missing; quiet and quick when it is already there.
#
# Idempotent. Never fails the build: when redis-server cannot be installed (no apt-get, not root and no sudo, no
# network), it prints a loud SKIP warning and exits 0, and the Redis tests then skip themselves, saying why.
#
# Usage: scripts/setup-redis.sh
set -uo pipefail

if command -v redis-server >/dev/null 2>&1; then
    exit 0
fi

skip() {
    echo "SKIP setup-redis: $1; redis-server is NOT installed and the sluice-limits-redis tests will be SKIPPED" >&2
    exit 0
}

command -v apt-get >/dev/null 2>&1 || skip "no apt-get on this machine (install redis-server >= 5 by hand)"

sudo=""
if [ "$(id -u)" != "0" ]; then
    command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null || skip "not root and no password-less sudo"
    sudo="sudo -n"
fi

log="$(mktemp "${TMPDIR:-/tmp}/setup-redis.XXXXXX")"
trap 'rm -f "$log"' EXIT
export DEBIAN_FRONTEND=noninteractive
if ! { $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends redis-server; } \
        >"$log" 2>&1; then
    tail -n 20 "$log" >&2
    skip "apt-get install redis-server failed (last lines of its output above)"
fi

# The package may start a system-wide server on port 6379; the tests never use it (they start their own).
command -v redis-server >/dev/null 2>&1 || skip "apt-get reported success but redis-server is still not on PATH"
echo "setup-redis: installed $(redis-server --version | head -n 1)"
