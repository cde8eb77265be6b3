#!/usr/bin/env bash
# Starts or stops a throwaway PostgreSQL 15 on 127.0.0.1:54329 for the store's engine tests.
# Usage: scripts/postgres-test-server.sh start|stop
set -euo pipefail
dir=/tmp/cohort-pg-test
port=54329
bin=/usr/lib/postgresql/15/bin
[ -x "$bin/pg_ctl" ] || bin=$(dirname "$(readlink -f "$(command -v pg_ctl 2>/dev/null || echo /nonexistent)")")
[ -x "$bin/pg_ctl" ] || { echo "postgres: pg_ctl not found; PostgreSQL tests will skip"; exit 1; }
run() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi; }
case "${1:-}" in
  start)
    # A server left over from an earlier run of this script holds the port: stop it through its
    # own pid file (pg_ctl), never by matching process names, so nothing else is touched.
    if [ -d "$dir/data" ]; then run "$bin/pg_ctl -D $dir/data -m fast -w stop >/dev/null 2>&1" || true; fi
    if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then useradd -r -m postgres; fi
    rm -rf "$dir" && mkdir -p "$dir" && { [ "$(id -u)" != 0 ] || chown postgres "$dir"; }
    run "$bin/initdb -D $dir/data -U postgres --auth=trust -E UTF8 >/dev/null"
    run "$bin/pg_ctl -D $dir/data -o '-p $port -k $dir -c listen_addresses=127.0.0.1' -l $dir/log -w start >/dev/null"
    run "$bin/createdb -h 127.0.0.1 -p $port -U postgres cohort_test"
    echo "postgres: started on 127.0.0.1:$port"
    ;;
  stop)
    [ -d "$dir/data" ] && run "$bin/pg_ctl -D $dir/data -m fast -w stop >/dev/null" || true
    rm -rf "$dir"
    ;;
  *) echo "usage: $0 start|stop"; exit 2 ;;
esac
