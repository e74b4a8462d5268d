#!/bin/sh
# A real streaming replica for DATABASE_READ_URL (docs/scale.md), not in CI: starts a PostgreSQL 15
# primary and a hot standby of it (pg_basebackup -R) from Debian's binaries in a temporary folder, on
# their own ports (REPLICA_BENCH_PORT, default 5442, and the next), so the shared server on 5432 and
# its configuration are not touched; then runs `npm run doctor`'s replica check against them and the
# list bench (bench/api.ts, cases a, c, g and f) twice: without DATABASE_READ_URL, then with it.
# Both clusters are stopped and removed at the end, also on failure. Needs root (runs PostgreSQL as
# the postgres user through runuser). BENCH_SECONDS and BENCH_ROUNDS pass through.
set -eu
BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
PORT=${REPLICA_BENCH_PORT:-5442}
STANDBY_PORT=$((PORT + 1))
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=$(mktemp -d /tmp/xinli-replica-XXXXXX)
chown postgres "$DIR"
as_pg() { runuser -u postgres -- "$@"; }

stop() {
  for c in standby primary; do
    [ -f "$DIR/$c/postmaster.pid" ] && as_pg "$BIN/pg_ctl" -D "$DIR/$c" -m fast -w stop >/dev/null 2>&1 || true
  done
  rm -rf "$DIR"
}
trap stop EXIT INT TERM

echo "== primary on $PORT, standby on $STANDBY_PORT, in $DIR"
as_pg "$BIN/initdb" -D "$DIR/primary" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
cat >>"$DIR/primary/postgresql.conf" <<EOF
port = $PORT
listen_addresses = '127.0.0.1'
unix_socket_directories = '$DIR'
wal_level = replica
max_wal_senders = 4
EOF
echo "host replication postgres 127.0.0.1/32 trust" >>"$DIR/primary/pg_hba.conf"
as_pg "$BIN/pg_ctl" -D "$DIR/primary" -l "$DIR/primary.log" -w start >/dev/null

# -R writes standby.signal and primary_conninfo: the copy starts as a hot standby streaming from the primary.
as_pg "$BIN/pg_basebackup" -h 127.0.0.1 -p "$PORT" -U postgres -D "$DIR/standby" -R -X stream -c fast
as_pg "$BIN/pg_ctl" -D "$DIR/standby" -l "$DIR/standby.log" -o "-p $STANDBY_PORT -c log_connections=on" -w start >/dev/null
PRIMARY="postgres://postgres@127.0.0.1:$PORT/postgres"
STANDBY="postgres://postgres@127.0.0.1:$STANDBY_PORT/postgres"
until [ "$(psql "$STANDBY" -Atc 'select pg_is_in_recovery()')" = t ]; do sleep 0.2; done
psql "$PRIMARY" -Atc "select 'streaming to ' || count(*) || ' standby' from pg_stat_replication where state = 'streaming'"

cd "$ROOT"
echo "== npm run doctor (the read replica line)"
DATABASE_URL=$PRIMARY DATABASE_READ_URL=$STANDBY DATA_KEY=$(node -e "console.log(require('crypto').randomBytes(32).toString('base64'))") \
  npm run --silent doctor 2>&1 | grep -E 'read replica|database' || true

# The standby logs each connection: the bench's scratch database there shows who read from it.
standby_reads() { echo "connections the standby took to a bench database: $(grep -c 'connection authorized: user=postgres database=xinli_bench_' "$DIR/standby.log" || true)"; }
export BENCH_CASES=${BENCH_CASES:-a,c,g,f}
echo "== list bench, everything on the primary"
DATABASE_URL=$PRIMARY npx tsx bench/api.ts
standby_reads
echo "== list bench, lists and the floor read from the standby"
DATABASE_URL=$PRIMARY DATABASE_READ_URL=$STANDBY npx tsx bench/api.ts
standby_reads
