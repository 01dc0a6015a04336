#!/usr/bin/env bash
# The README's test command: every Rust test (with a private PostgreSQL server for the PostgreSQL
# store's tests), then the browser tests. Installs what is missing (Debian's postgresql here,
# Chromium in e2e/run.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

initdb=$(ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$initdb" ]; then
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql
  initdb=$(ls /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)
fi
bin=$(dirname "$initdb")
# PostgreSQL refuses to run as root: as root, the server runs as the package's `postgres` user.
as_owner=()
if [ "$(id -u)" = 0 ]; then as_owner=(runuser -u postgres --); fi
pgdir=$(mktemp -d)
chmod 755 "$pgdir"
[ "$(id -u)" = 0 ] && chown postgres "$pgdir"
port=$(( 20000 + RANDOM % 20000 ))
"${as_owner[@]}" "$bin/initdb" -D "$pgdir/data" -U postgres --auth=trust -E UTF8 >/dev/null
"${as_owner[@]}" "$bin/pg_ctl" -D "$pgdir/data" -l "$pgdir/log" -w \
  -o "-p $port -k $pgdir -c listen_addresses=127.0.0.1 -c fsync=on" start >/dev/null
trap '"${as_owner[@]}" "$bin/pg_ctl" -D "$pgdir/data" -m fast stop >/dev/null; rm -rf "$pgdir"' EXIT
"${as_owner[@]}" "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres caisson_test
export CAISSON_TEST_POSTGRES="postgres://postgres@127.0.0.1:$port/caisson_test"

cargo test --workspace --release
bash e2e/run.sh
