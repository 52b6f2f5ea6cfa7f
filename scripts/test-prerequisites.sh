#!/usr/bin/env bash
# What `npm test` needs outside node_modules, made ready before the suite runs, so that
# `npm ci && npm test` works on a fresh machine: MariaDB and Redis answering on 127.0.0.1, Debian's
# Chromium with a CJK font for the browser tests, Debian's rsyslog for the SIEM tests, a three-node
# MariaDB Galera cluster on loopback (scripts/galera-cluster.sh, ADR 042) for the cluster spec, and
# Node 24 for the second run (scripts/node24.sh).
# Whatever is already there is left alone (well under a second then). What this script may not do
# itself (not root, no apt-get) fails at once with one line naming what to install or start.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
  echo "test prerequisites: $*" >&2
  exit 1
}
is_root() { [ "$(id -u)" = 0 ]; }
# Polls `check` every 0.2 s for up to `seconds`.
wait_for() {
  local seconds="$1" check="$2"
  for _ in $(seq 1 $((seconds * 5))); do
    "$check" && return 0
    sleep 0.2
  done
  "$check"
}

# MariaDB: the e2e-mariadb project (each test file makes its own database).
mariadb_ping() { mysqladmin --protocol=tcp -h127.0.0.1 -P3306 -uroot ping >/dev/null 2>&1; }
command -v mysqladmin >/dev/null && command -v mysql >/dev/null ||
  fail "MariaDB's client is missing: install Debian's mariadb-client (and mariadb-server, root with an empty password over TCP)"
if ! mariadb_ping; then
  [ -x /usr/sbin/mariadbd ] ||
    fail "MariaDB is not answering on 127.0.0.1:3306 and is not installed: install Debian's mariadb-server, root with an empty password over TCP"
  is_root ||
    fail "MariaDB is not answering on 127.0.0.1:3306: start it as root (start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd)"
  echo "test prerequisites: starting MariaDB"
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd
  wait_for 60 mariadb_ping || fail "MariaDB did not answer on 127.0.0.1:3306 within 60 s of starting"
fi
# For manual runs and the benchmark; the suite makes its own databases.
mysql --protocol=tcp -h127.0.0.1 -uroot -e \
  "CREATE DATABASE IF NOT EXISTS toolgate CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;"

# Redis: quotas shared by several gateways.
redis_ping() { redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; }
if ! redis_ping; then
  command -v redis-server >/dev/null && command -v redis-cli >/dev/null ||
    fail "Redis is not answering on 127.0.0.1:6379 and is not installed: install Debian's redis-server"
  is_root ||
    fail "Redis is not answering on 127.0.0.1:6379: start it as root (redis-server --daemonize yes --port 6379)"
  echo "test prerequisites: starting Redis"
  # Keeps nothing on disk: the tests need a counter store, not durability.
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log >/dev/null
  wait_for 30 redis_ping || fail "Redis did not answer on 127.0.0.1:6379 within 30 s of starting"
fi

# Debian's Chromium for the browser tests (driven by playwright-core at /usr/bin/chromium; never a
# downloaded browser build) and a CJK font, so zh-CN pages render characters, not boxes.
browser_ready() { [ -x /usr/bin/chromium ] && dpkg -s fonts-wqy-microhei >/dev/null 2>&1; }
if ! browser_ready; then
  is_root && command -v apt-get >/dev/null ||
    fail "the browser tests need Debian's chromium and fonts-wqy-microhei: install them (as root: apt-get install chromium fonts-wqy-microhei)"
  echo "test prerequisites: installing Debian's chromium and fonts-wqy-microhei"
  apt_install() {
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium fonts-wqy-microhei >/dev/null
  }
  # An old or missing package list is the usual reason an install fails on a fresh machine.
  apt_install 2>/dev/null || { apt-get update >/dev/null && apt_install; } ||
    fail "apt-get could not install chromium and fonts-wqy-microhei"
  browser_ready || fail "chromium is still missing at /usr/bin/chromium after apt-get install"
fi

# Debian's rsyslog with its GnuTLS netstream driver: the SIEM streaming tests start rsyslogd
# instances of their own (imtcp, plain and TLS) on unprivileged ports; nothing here starts one.
rsyslog_ready() { [ -x /usr/sbin/rsyslogd ] && dpkg -s rsyslog-gnutls >/dev/null 2>&1; }
if ! rsyslog_ready; then
  is_root && command -v apt-get >/dev/null ||
    fail "the SIEM tests need Debian's rsyslog and rsyslog-gnutls: install them (as root: apt-get install rsyslog rsyslog-gnutls)"
  echo "test prerequisites: installing Debian's rsyslog and rsyslog-gnutls"
  rsyslog_install() {
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends rsyslog rsyslog-gnutls >/dev/null
  }
  rsyslog_install 2>/dev/null || { apt-get update >/dev/null && rsyslog_install; } ||
    fail "apt-get could not install rsyslog and rsyslog-gnutls"
  rsyslog_ready || fail "rsyslogd is still missing at /usr/sbin/rsyslogd after apt-get install"
fi

# Debian's galera-4 (with rsync and lsof for a node's full-snapshot transfer) and a three-node cluster
# on 127.0.0.1:3311-3313 for test/e2e/galera-cluster.e2e-spec.ts; a running cluster is left alone,
# a fresh one takes about 40 s, a node rejoining about 15 s. It never touches the server on 3306.
galera_ready() { [ -e /usr/lib/galera/libgalera_smm.so ] && command -v rsync >/dev/null && command -v lsof >/dev/null; }
if ! galera_ready; then
  is_root && command -v apt-get >/dev/null ||
    fail "the Galera cluster spec needs Debian's galera-4, rsync and lsof: install them (as root: apt-get install galera-4 rsync lsof)"
  echo "test prerequisites: installing Debian's galera-4, rsync and lsof"
  galera_install() {
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends galera-4 rsync lsof >/dev/null
  }
  galera_install 2>/dev/null || { apt-get update >/dev/null && galera_install; } ||
    fail "apt-get could not install galera-4, rsync and lsof"
  galera_ready || fail "/usr/lib/galera/libgalera_smm.so is still missing after apt-get install galera-4"
fi
bash scripts/galera-cluster.sh start >/dev/null || fail "the Galera test cluster did not start (scripts/galera-cluster.sh status)"

# Node 24 and a better-sqlite3 built for it, for the second run of the unit and SQLite suites.
bash scripts/node24.sh provision
