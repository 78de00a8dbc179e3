#!/usr/bin/env bash
# A throwaway PostgreSQL server for the suite: Debian's postgresql package (installed with apt when missing, as
# root), a fresh cluster in a temporary folder, listening on loopback only, trusting local connections.
#
#   eval "$(bash scripts/postgres.sh start)"   # starts it and exports APPROVAL_CONFORMANCE_POSTGRES (and _DIR)
#   bash scripts/postgres.sh stop              # stops the one in $APPROVAL_CONFORMANCE_POSTGRES_DIR and removes it
#   bash scripts/postgres.sh ensure            # the tests' way: reuse the one this machine's tests started, or start
#                                              # one and remember it (in $TMPDIR/approval-conformance-pg.env)
set -euo pipefail

bin() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  [ -n "$dir" ] && echo "$dir"
}

case "${1:-}" in
  ensure)
    env="${TMPDIR:-/tmp}/approval-conformance-pg.env"
    exec 9>"$env.lock"
    flock 9
    if [ -f "$env" ]; then
      # shellcheck disable=SC1090
      . "$env"
      port="${APPROVAL_CONFORMANCE_POSTGRES##*:}"; port="${port%%/*}"
      if "$(bin)/pg_isready" -q -h 127.0.0.1 -p "$port" 2>/dev/null; then cat "$env"; exit 0; fi
    fi
    bash "$0" start 9>&- >"$env.new" && mv "$env.new" "$env" && cat "$env"
    ;;
  start)
    if [ -z "$(bin)" ]; then
      [ "$(id -u)" = 0 ] || { echo "postgres.sh: PostgreSQL is not installed; install Debian's postgresql package" >&2; exit 2; }
      DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >/dev/null 2>&1 ||
        { echo "postgres.sh: apt-get install postgresql failed" >&2; exit 2; }
    fi
    pgbin=$(bin)
    dir=$(mktemp -d /tmp/approval-conformance-pg.XXXXXX)
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    # initdb and the server refuse to run as root: run them as the package's postgres user (or ourselves).
    as=()
    if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; as=(runuser -u postgres --); fi
    "${as[@]}" "$pgbin/initdb" -D "$dir/data" --auth=trust --username=postgres --encoding=UTF8 >"$dir/initdb.log" 2>&1 ||
      { echo "postgres.sh: initdb failed; see $dir/initdb.log" >&2; exit 2; }
    "${as[@]}" "$pgbin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
      -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir -c fsync=off -c max_connections=200" start >/dev/null ||
      { echo "postgres.sh: the server did not start; see $dir/server.log" >&2; exit 2; }
    echo "export APPROVAL_CONFORMANCE_POSTGRES=postgres://postgres@127.0.0.1:$port/postgres"
    echo "export APPROVAL_CONFORMANCE_POSTGRES_DIR=$dir"
    ;;
  stop)
    dir="${APPROVAL_CONFORMANCE_POSTGRES_DIR:?set by 'postgres.sh start'}"
    as=()
    [ "$(id -u)" = 0 ] && as=(runuser -u postgres --)
    "${as[@]}" "$(bin)/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
  *)
    echo "usage: bash scripts/postgres.sh start|stop" >&2
    exit 2
    ;;
esac
