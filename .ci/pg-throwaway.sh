#!/usr/bin/env bash
# Start a throwaway PostgreSQL on 127.0.0.1 for CI/tests, running as root (the team's tools/pg-throwaway.sh,
# copied so a clone needs nothing beside it; .ci/run and test/helpers/postgres-global.ts use it).
# Usage:  source .ci/pg-throwaway.sh; pg_throwaway_start   (exports PGHOST PGPORT PGUSER PGDATABASE DATABASE_URL)
#         pg_throwaway_stop
#    or:  bash .ci/pg-throwaway.sh start|stop             (stop needs the PG_DIR the start used)
# Env knobs: PGPORT (default 54329), PG_DIR (default: mktemp under /tmp)
set -euo pipefail

pg_find_bin() {
  local b
  b=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1 || true)
  if [ -n "$b" ] && [ -x "$b/initdb" ]; then echo "$b"; return 0; fi
  return 1
}

pg_throwaway_install() {
  # Only when no server binaries exist. Keeps apt from creating/starting its own "main" cluster.
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends postgresql-common >/dev/null
  mkdir -p /etc/postgresql-common
  grep -q '^create_main_cluster *= *false' /etc/postgresql-common/createcluster.conf 2>/dev/null \
    || echo 'create_main_cluster = false' >> /etc/postgresql-common/createcluster.conf
  apt-get install -y -qq --no-install-recommends postgresql-15 >/dev/null
}

pg_throwaway_start() {
  local PGBIN
  PGBIN=$(pg_find_bin) || { pg_throwaway_install; PGBIN=$(pg_find_bin); }
  # initdb/postgres refuse to run as root: use the 'postgres' OS user (created by the Debian package),
  # or create a system user when the binaries came some other way.
  id -u postgres >/dev/null 2>&1 || useradd --system --user-group --home-dir /nonexistent --shell /usr/sbin/nologin postgres
  export PGPORT=${PGPORT:-54329}
  export PG_DIR=${PG_DIR:-$(mktemp -d /tmp/pg-throwaway.XXXXXX)}
  mkdir -p "$PG_DIR"; chown postgres:postgres "$PG_DIR"; chmod 700 "$PG_DIR"
  # stop a leftover server from an earlier run on the same dir
  [ -f "$PG_DIR/data/postmaster.pid" ] && runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true
  if [ ! -f "$PG_DIR/data/PG_VERSION" ]; then
    runuser -u postgres -- "$PGBIN/initdb" -D "$PG_DIR/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >"$PG_DIR/initdb.log" 2>&1 \
      || { cat "$PG_DIR/initdb.log" >&2; return 1; }
  fi
  # test-only settings: durability off (fsync etc.), socket in our own dir, TCP on loopback only
  runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $PGPORT -k $PG_DIR -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100" \
    start >/dev/null || { cat "$PG_DIR/server.log" >&2; return 1; }
  export PGHOST=127.0.0.1 PGUSER=postgres PGDATABASE=app
  "$PGBIN/psql" -q -h 127.0.0.1 -p "$PGPORT" -U postgres -d postgres -v ON_ERROR_STOP=1 \
    -c "CREATE DATABASE app" >/dev/null 2>&1 || true
  export DATABASE_URL="postgres://postgres@127.0.0.1:$PGPORT/app"
  export PG_THROWAWAY_BIN="$PGBIN"
  echo "postgres ready: $DATABASE_URL (data in $PG_DIR)"
}

pg_throwaway_stop() {
  local PGBIN=${PG_THROWAWAY_BIN:-$(pg_find_bin)}
  [ -n "${PG_DIR:-}" ] && [ -d "$PG_DIR/data" ] || return 0
  runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$PG_DIR"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  case "${1:-start}" in
    start) pg_throwaway_start ;;
    stop)  pg_throwaway_stop ;;
    *) echo "usage: $0 start|stop" >&2; exit 2 ;;
  esac
else
  set +euo pipefail   # do not leak strict mode into the caller
fi
