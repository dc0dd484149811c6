#!/usr/bin/env bash
# Instructions per action, counted by valgrind (issue 22): a figure that
# repeats on a noisy, shared machine where wall-clock timings do not.
#
#   bench/callgrind.sh                     # build (release) and measure
#   bench/callgrind.sh SERVER DRIVER       # measure these binaries
#   INTEGRITY_COST=1 bench/callgrind.sh SERVER DRIVER UNCHECKED_SERVER
#
# `muster-server` runs under `valgrind --tool=callgrind`; the driver
# (server/examples/callgrind_drive.rs) runs natively against it over
# loopback WebSocket: one sandbox table, two seats, four spectators, and a
# fixed number of d6 rolls, each waited for before the next (so every
# action costs the server the same work: one entry, one commit, one delta
# per viewer). The server runs twice, with WARM and with WARM + ACTIONS
# actions; the difference of the two instruction totals divided by
# ACTIONS is the figure, so start-up, set-up, the first actions (caches,
# prepared statements) and shutdown cancel out.
#
# Environment: ACTIONS (1000), WARM (100), DRIVE (extra driver flags, e.g.
# "--moves --combined" for the benchmark's move as one MoveRoll action),
# CONFIG (extra top-level lines for the server's TOML, e.g.
# "reveal_every = 8"), INTEGRITY_COST=1 (issue 20: build the server a
# second time with the feature `bench-no-integrity`, which stores entries
# without their checksum and keeps no committed head, and measure both
# binaries one after the other: what the checks cost per action), KEEP (a
# directory to keep each run's callgrind file in, for callgrind_annotate).
set -euo pipefail
cd "$(dirname "$0")/.."
ACTIONS=${ACTIONS:-1000}
WARM=${WARM:-100}
DRIVE=${DRIVE:-}
CONFIG=${CONFIG:-}
INTEGRITY_COST=${INTEGRITY_COST:-}
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 2; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/muster-callgrind.XXXXXX")
PID=
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
if [ $# -ge 2 ]; then
  SERVER=$1; DRIVER=$2
  [ $# -ge 3 ] && cp "$3" "$WORK/muster-server-unchecked"
else
  T=${CARGO_TARGET_DIR:-target}
  if [ -n "$INTEGRITY_COST" ]; then
    # The same target directory builds both; keep a copy of each binary.
    cargo build --release --quiet -p muster-server --bin muster-server \
      --features bench-no-integrity
    cp "$T/release/muster-server" "$WORK/muster-server-unchecked"
  fi
  cargo build --release --quiet -p muster-server --bin muster-server --example callgrind_drive
  SERVER=$T/release/muster-server; DRIVER=$T/release/examples/callgrind_drive
fi

# Total instructions (Ir) of one server run that served `n` actions.
measure() {
  # A fresh data directory for every run (of every binary): a server
  # started on another run's files would first replay its table.
  local n=$1 dir
  dir=$(mktemp -d "$WORK/run$1.XXXXXX")
  mkdir -p "$dir/data"
  # The driver must not meet the rate limit: once the server ran fast
  # enough under valgrind to be told to slow down, and the run was void.
  printf '%b\n[limits]\nrate_per_sec = 1000000\nrate_burst = 1000000\n' "$CONFIG" > "$dir/config.toml"
  valgrind --tool=callgrind --callgrind-out-file="$dir/cg.out" \
    "$SERVER" serve --config "$dir/config.toml" --data-dir "$dir/data" \
    --ws 127.0.0.1:0 --quic 127.0.0.1:0 --metrics 127.0.0.1:0 \
    >"$dir/out" 2>"$dir/err" &
  PID=$!
  local url=""
  for _ in $(seq 1 600); do
    url=$(grep -o 'ws=ws://[0-9.:]*' "$dir/out" 2>/dev/null | head -1 | cut -d= -f2 || true)
    [ -n "$url" ] && break
    kill -0 "$PID" 2>/dev/null || { cat "$dir/err" >&2; echo "the server did not start" >&2; exit 1; }
    sleep 0.2
  done
  [ -n "$url" ] || { echo "the server did not print its address in 120 s" >&2; exit 1; }
  # shellcheck disable=SC2086
  timeout 1800 "$DRIVER" --ws "$url" --actions "$n" $DRIVE >&2 ||
    { echo "the driver failed: the run does not count" >&2; exit 1; }
  kill -TERM "$PID"
  wait "$PID" || true
  PID=
  # callgrind's "totals:" line (Ir is the first event).
  [ -n "${KEEP:-}" ] && mkdir -p "$KEEP" && cp "$dir/cg.out" "$KEEP/$(basename "$SERVER").$n.cg.out"
  awk '/^totals:/ {print $2}' "$dir/cg.out"
}

# Instructions per action of one server binary.
per_action() {
  echo "server: $SERVER" >&2
  BASE=$(measure "$WARM")
  FULL=$(measure $((WARM + ACTIONS)))
  echo "instructions: $BASE with $WARM actions, $FULL with $((WARM + ACTIONS))" >&2
  awk -v a="$BASE" -v b="$FULL" -v n="$ACTIONS" 'BEGIN { printf "%.0f", (b - a) / n }'
}

CHECKED=$(per_action)
echo "instructions per action: $CHECKED ($ACTIONS actions)"
if [ -n "$INTEGRITY_COST" ] && [ -x "$WORK/muster-server-unchecked" ]; then
  SERVER="$WORK/muster-server-unchecked"
  UNCHECKED=$(per_action)
  echo "without the entry checksum and committed head: $UNCHECKED"
  awk -v c="$CHECKED" -v u="$UNCHECKED" \
    'BEGIN { printf "the checks cost %.0f instructions per action (%+.1f %%)\n", c - u, 100 * (c - u) / u }'
fi
