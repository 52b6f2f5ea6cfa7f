#!/usr/bin/env bash
# A three-node MariaDB Galera cluster on loopback for the cluster spec and `npm run bench -- --only
# cluster` (ADR 042): node N serves SQL on 331N (root, empty password, over TCP), replicates on
# 457N, receives incremental state (IST) on 458N and full snapshots (rsync SST) on 459N, and keeps
# its data, socket, pid file and log under $TOOLGATE_GALERA_DIR/nodeN. Never touches the main
# MariaDB on 3306.
#
#   galera-cluster.sh start [N...]   start every node that is not running (all three by default);
#                                    running nodes are left alone. A node joins the running ones;
#                                    with none running, node 1 (or the first named) bootstraps.
#   galera-cluster.sh stop [N...]    stop nodes (SIGTERM, waited for)
#   galera-cluster.sh kill N         SIGKILL node N (what the spec does mid-load)
#   galera-cluster.sh status         one line per node: port, pid, wsrep state, cluster size
#   galera-cluster.sh wipe           stop all and delete the data (the next start bootstraps afresh)
set -euo pipefail

DIR="${TOOLGATE_GALERA_DIR:-/var/tmp/toolgate-galera}"
NODES=(1 2 3)
PROVIDER=/usr/lib/galera/libgalera_smm.so
CLUSTER_ADDRESS="gcomm://127.0.0.1:4571,127.0.0.1:4572,127.0.0.1:4573"

fail() {
  echo "galera-cluster: $*" >&2
  exit 1
}
sql_port() { echo $((3310 + $1)); }
node_dir() { echo "$DIR/node$1"; }
q() { mysql --protocol=tcp -h127.0.0.1 -P"$(sql_port "$1")" -uroot -N -B -e "$2" 2>/dev/null; }
pid_of() {
  local f
  f="$(node_dir "$1")/mariadbd.pid"
  [ -s "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null && cat "$f"
}
running() { pid_of "$1" >/dev/null; }
wsrep() { q "$1" "SHOW STATUS LIKE '$2'" | cut -f2; }
synced() { [ "$(wsrep "$1" wsrep_local_state_comment)" = Synced ]; }
# Polls `check args` every 0.2 s for up to `seconds`.
wait_for() {
  local seconds="$1"
  shift
  for _ in $(seq 1 $((seconds * 5))); do
    "$@" && return 0
    sleep 0.2
  done
  "$@"
}

[ -e "$PROVIDER" ] || fail "$PROVIDER is missing: install Debian's galera-4 (as root: apt-get install galera-4 rsync lsof)"
[ -x /usr/sbin/mariadbd ] || fail "/usr/sbin/mariadbd is missing: install Debian's mariadb-server"

write_config() {
  local n="$1" d
  d="$(node_dir "$n")"
  mkdir -p "$d/data"
  # The test cluster's data is disposable: durability comes from the other nodes (the commit is
  # certified on all three before it returns), so a node flushes its log once a second.
  cat >"$d/my.cnf" <<EOF
[mysqld]
datadir=$d/data
socket=$d/mariadbd.sock
pid-file=$d/mariadbd.pid
log-error=$d/mariadbd.err
port=$(sql_port "$n")
bind-address=127.0.0.1
skip-name-resolve
character-set-server=utf8mb4
collation-server=utf8mb4_unicode_ci
max_connections=400
innodb_buffer_pool_size=96M
innodb_log_file_size=64M
innodb_flush_log_at_trx_commit=2
innodb_autoinc_lock_mode=2
default_storage_engine=InnoDB
binlog_format=ROW
wsrep_on=ON
wsrep_provider=$PROVIDER
wsrep_cluster_name=toolgate_test
wsrep_cluster_address=$CLUSTER_ADDRESS
wsrep_node_name=node$n
wsrep_node_address=127.0.0.1:$((4570 + n))
wsrep_provider_options="base_port=$((4570 + n));ist.recv_addr=127.0.0.1:$((4580 + n));gcache.size=256M"
wsrep_sst_method=rsync
wsrep_sst_receive_address=127.0.0.1:$((4590 + n))
wsrep_slave_threads=4
EOF
  if [ "$(id -u)" = 0 ]; then
    echo "user=mysql" >>"$d/my.cnf"
    chown -R mysql:mysql "$d"
  fi
}

# The position a node killed mid-write recovers from its InnoDB log, so that it rejoins with an
# incremental transfer (IST) instead of a full snapshot; empty when there is nothing to recover.
recovered_position() {
  local d log
  d="$(node_dir "$1")"
  log="$d/recover.log"
  [ -d "$d/data/mysql" ] || return 0
  /usr/sbin/mariadbd --defaults-file="$d/my.cnf" --wsrep-recover --log-error="$log" >/dev/null 2>&1 || true
  [ -f "$log" ] && sed -n 's/.*WSREP: Recovered position: *//p' "$log" | tail -1
  rm -f "$log"
}

start_node() {
  local n="$1" bootstrap="$2" d args=()
  d="$(node_dir "$n")"
  write_config "$n"
  if [ "$bootstrap" = yes ]; then
    if [ ! -d "$d/data/mysql" ]; then
      mariadb-install-db --defaults-file="$d/my.cnf" --auth-root-authentication-method=normal \
        --skip-test-db >"$d/install.log" 2>&1 || fail "mariadb-install-db failed for node $n: see $d/install.log"
    fi
    # The whole cluster was down: this node's data is the cluster's (a test cluster has no other truth).
    [ -f "$d/data/grastate.dat" ] && sed -i 's/^safe_to_bootstrap: 0/safe_to_bootstrap: 1/' "$d/data/grastate.dat"
    args+=(--wsrep-new-cluster)
  else
    local position
    position="$(recovered_position "$n")"
    [ -n "$position" ] && args+=(--wsrep-start-position="$position")
  fi
  echo "galera-cluster: starting node $n$([ "$bootstrap" = yes ] && echo ' (bootstrap)')"
  /usr/sbin/mariadbd --defaults-file="$d/my.cnf" "${args[@]}" >/dev/null 2>&1 &
  disown
}

any_running() {
  local n
  for n in "${NODES[@]}"; do running "$n" && synced "$n" && return 0; done
  return 1
}

cmd_start() {
  local wanted=("$@") n
  [ ${#wanted[@]} -gt 0 ] || wanted=("${NODES[@]}")
  mkdir -p "$DIR"
  for n in "${wanted[@]}"; do
    running "$n" && continue
    # One at a time: a donor serves one snapshot, and a joiner waiting for a donor only adds time.
    if any_running; then
      start_node "$n" no
      wait_for 120 synced "$n" || fail "node $n did not join within 120 s: see $(node_dir "$n")/mariadbd.err"
    else
      start_node "$n" yes
      wait_for 60 synced "$n" || fail "node $n did not bootstrap within 60 s: see $(node_dir "$n")/mariadbd.err"
    fi
  done
  cmd_status
}

cmd_stop() {
  local wanted=("$@") n pid
  [ ${#wanted[@]} -gt 0 ] || wanted=(3 2 1)
  for n in "${wanted[@]}"; do
    pid="$(pid_of "$n")" || continue
    kill "$pid"
    wait_for 60 bash -c "! kill -0 $pid 2>/dev/null" || kill -9 "$pid"
  done
}

cmd_kill() {
  local pid
  pid="$(pid_of "$1")" || fail "node $1 is not running"
  kill -9 "$pid"
  wait_for 10 bash -c "! kill -0 $pid 2>/dev/null"
}

cmd_status() {
  local n
  for n in "${NODES[@]}"; do
    if running "$n"; then
      echo "node $n: 127.0.0.1:$(sql_port "$n") pid $(pid_of "$n") $(wsrep "$n" wsrep_local_state_comment), cluster size $(wsrep "$n" wsrep_cluster_size)"
    else
      echo "node $n: 127.0.0.1:$(sql_port "$n") down"
    fi
  done
}

case "${1:-}" in
  start) shift && cmd_start "$@" ;;
  stop) shift && cmd_stop "$@" ;;
  kill) [ -n "${2:-}" ] || fail "kill needs a node number" && cmd_kill "$2" ;;
  status) cmd_status ;;
  wipe) cmd_stop && rm -rf "$DIR" ;;
  *) fail "usage: galera-cluster.sh start [N...] | stop [N...] | kill N | status | wipe" ;;
esac
