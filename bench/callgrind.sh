#!/usr/bin/env bash
# Instructions per action, counted by valgrind (issue 22): a figure that
# repeats on a noisy, shared machine where wall-clock timings do not.
#
#   bench/callgrind.sh                     # build (release) and measure
#   bench/callgrind.sh SERVER DRIVER       # measure these binaries
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
# "reveal_every = 8").
set -euo pipefail
cd "$(dirname "$0")/.."
ACTIONS=${ACTIONS:-1000}
WARM=${WARM:-100}
DRIVE=${DRIVE:-}
CONFIG=${CONFIG:-}
if [ $# -ge 2 ]; then
  SERVER=$1; DRIVER=$2
else
  cargo build --release --quiet -p muster-server --bin muster-server --example callgrind_drive
  T=${CARGO_TARGET_DIR:-target}
  SERVER=$T/release/muster-server; DRIVER=$T/release/examples/callgrind_drive
fi
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 2; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/muster-callgrind.XXXXXX")
PID=
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

# Total instructions (Ir) of one server run that served `n` actions.
measure() {
  local n=$1 dir="$WORK/run$1"
  mkdir -p "$dir/data"
  printf '%b\n' "$CONFIG" > "$dir/config.toml"
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
  timeout 1800 "$DRIVER" --ws "$url" --actions "$n" $DRIVE >&2
  kill -TERM "$PID"
  wait "$PID" || true
  PID=
  # callgrind's "totals:" line (Ir is the first event).
  awk '/^totals:/ {print $2}' "$dir/cg.out"
}

echo "server: $SERVER" >&2
BASE=$(measure "$WARM")
FULL=$(measure $((WARM + ACTIONS)))
echo "instructions: $BASE with $WARM actions, $FULL with $((WARM + ACTIONS))" >&2
awk -v a="$BASE" -v b="$FULL" -v n="$ACTIONS" \
  'BEGIN { printf "instructions per action: %.0f (%d actions)\n", (b - a) / n, n }'
