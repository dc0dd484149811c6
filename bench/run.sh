#!/usr/bin/env bash
# Muster's side-by-side load benchmark: boardgame.io 0.50.2, Colyseus 0.18,
# and (when its headless client is wired into the driver) Muster over
# WebSocket and QUIC. Not part of CI.
#
#   bench/run.sh [small|moderate|full]      (default: moderate)
#
# Installs the peers with `npm ci`, builds the driver in release, then for
# every server configuration the driver starts the server itself (so it can
# read /proc/<pid> and restart it for each tables-per-core step), runs the
# scenarios, stops it, and writes bench/out/<name>.json. Finally
# bench/RESULTS.md is written from those files.
#
# Only loopback addresses are used. Every scenario is bounded in time.
# On a machine with 2+ cores the server is pinned to core 0 and the driver
# to core 1, so "tables per core" means what it says.
set -euo pipefail
cd "$(dirname "$0")"
HERE=$(pwd)
SIZE=${1:-moderate}

# Shared by every server: the same game, rate, clients and durations.
RATE=1          # moves per second per table (seats alternate)
SPECT=4         # spectators per table (2 players + 4 spectators = 6 clients)
case "$SIZE" in
  small)    TABLES=10;  WINDOW=8;  BURST=200;  S_START=25;  S_MAX=400;  S_STEPS=3; S_WIN=5 ;;
  moderate) TABLES=100; WINDOW=15; BURST=1000; S_START=200; S_MAX=3000; S_STEPS=5; S_WIN=5 ;;
  full)     TABLES=300; WINDOW=30; BURST=1000; S_START=100; S_MAX=3000; S_STEPS=8; S_WIN=10 ;;
  *) echo "usage: $0 [small|moderate|full]" >&2; exit 2 ;;
esac
# Which configurations to run (space-separated names from the list below).
ONLY=${ONLY:-}

# Many sockets: up to S_MAX tables x 6 clients, on both ends.
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)" || true

echo "== installing peers (npm ci)"
(cd peers/boardgameio && npm ci --no-audit --no-fund --loglevel=error)
(cd peers/colyseus && npm ci --no-audit --no-fund --loglevel=error)
echo "== building the driver (release)"
(cd driver && cargo build --release --quiet)
DRIVER="$HERE/driver/target/release/bench-driver"

# The cores may be shared with other work (builds): server and driver run at
# raised priority (nice -10, the same for every server) while they measure.
NICE="nice -n -10"
$NICE true 2>/dev/null || NICE=""
if [ "$(nproc)" -ge 2 ]; then
  # The server inherits the driver's nice value (no second nice here).
  SERVER_PIN="taskset -c 0"; DRIVER_PIN="$NICE taskset -c 1"; PINNED="server pinned to core 0, driver to core 1${NICE:+, both at nice -10 (the server inherits it from the driver)}"
else
  SERVER_PIN=""; DRIVER_PIN="$NICE"; PINNED="not pinned (one core)${NICE:+, nice -10}"
fi
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)

mkdir -p out
rm -f out/*.json
FILES=()

# run NAME TARGET LABEL KEEPALIVE PORT CWD ENV...
run() {
  local name=$1 target=$2 label=$3 keepalive=$4 port=$5 cwd=$6; shift 6
  if [ -n "$ONLY" ] && [[ " $ONLY " != *" $name "* ]]; then return 0; fi
  local envs=()
  for e in "$@"; do envs+=(--env "$e"); done
  echo "== $name: $label, keep-alive $keepalive"
  # Bounded: 60 minutes at most for one configuration, whatever happens.
  timeout 3600 $DRIVER_PIN "$DRIVER" run --target "$target" --label "$label" --keepalive "$keepalive" \
    --addr "127.0.0.1:$port" --server-cmd "$SERVER_PIN node server.js" --server-cwd "$cwd" \
    --server-log "out/$name.server.log" "${envs[@]}" \
    --tables "$TABLES" --spectators "$SPECT" --rate "$RATE" --warmup 3 --window "$WINDOW" \
    --burst "$BURST" --search-start "$S_START" --search-max "$S_MAX" --search-steps "$S_STEPS" \
    --step-window "$S_WIN" --out "out/$name.json" || echo "   (driver exited non-zero)"
  [ -f "out/$name.json" ] && FILES+=("out/$name.json")
  return 0
}

BG=peers/boardgameio
CO=peers/colyseus
run bgio-full-default   bgio     "boardgame.io deltaState=off" default 8001 $BG PORT=8001 DELTA_STATE=0 KEEPALIVE=default
run bgio-full-low       bgio     "boardgame.io deltaState=off" low     8001 $BG PORT=8001 DELTA_STATE=0 KEEPALIVE=low
run bgio-delta-default  bgio     "boardgame.io deltaState=on"  default 8001 $BG PORT=8001 DELTA_STATE=1 KEEPALIVE=default
run bgio-delta-low      bgio     "boardgame.io deltaState=on"  low     8001 $BG PORT=8001 DELTA_STATE=1 KEEPALIVE=low
run colyseus-default    colyseus "Colyseus 0.18"               default 8002 $CO PORT=8002 KEEPALIVE=default
run colyseus-low        colyseus "Colyseus 0.18"               low     8002 $CO PORT=8002 KEEPALIVE=low
# Muster: the driver's muster-ws / muster-quic targets wait for the headless
# client to be wired in (driver/src/muster.rs says how); until then they are
# reported as pending rather than run.

echo "== writing RESULTS.md"
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
CPU=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
RAM=$(free -g | awk '/^Mem:/ {print $2 " GiB"}')
{
  echo "# Side-by-side load benchmark: Muster vs boardgame.io vs Colyseus"
  echo
  echo "Written by \`bench/run.sh $SIZE\` on $(date -u '+%Y-%m-%d %H:%M UTC')."
  echo
  echo "- Machine: $(nproc) cores ($CPU), $RAM RAM; $(uname -sr); Node $(node --version); $PINNED."
  echo "- Other load on the machine (1/5/15-min load average): $LOAD_BEFORE before the run, $LOAD_AFTER after. Anything above ~2 means other work shared the two cores with the measurement, which shows mostly in p99 and in the tables-per-core search."
  echo "- Versions: boardgame.io $(node -p "require('./$BG/node_modules/boardgame.io/package.json').version"), @colyseus/core $(node -p "require('./$CO/node_modules/@colyseus/core/package.json').version"), @colyseus/ws-transport $(node -p "require('./$CO/node_modules/@colyseus/ws-transport/package.json').version"), @colyseus/schema $(node -p "require('./$CO/node_modules/@colyseus/schema/package.json').version")."
  echo "- Same game on every server: 2 seats + $SPECT spectators per table; the seat whose turn it is moves the counter to a hex and rolls a d6; every seat and spectator receives the result. Moves at $RATE per second per table, tables spread evenly over the second."
  echo "- Steady run: $TABLES tables, ${WINDOW} s measured after 3 s warm-up. Bursts: $BURST spectators join existing tables at once, then all $BURST drop their TCP connection and reconnect at once. Search: a fresh server pinned to one core per step, $S_START tables first, doubling up to $S_MAX, then bisecting; a step passes when p99 ≤ 50 ms, ≥ 95 % of the due moves were made, and no client failed; at most $S_STEPS steps of ${S_WIN} s."
  echo "- **Keep-alive**: columns marked \"keep-alive default\" run each framework's own settings (boardgame.io: socket.io pingInterval 10 s / pingTimeout 20 s, set by boardgame.io; Colyseus ws-transport: a WebSocket ping every 3 s). \"keep-alive low\" turns pings down to one per 600 s (boardgame.io \`socketOpts\`, Colyseus \`pingInterval\`)."
  echo "- **Muster column: pending.** The driver has the slot (\`driver/src/muster.rs\`, targets \`muster-ws\` and \`muster-quic\`) but not yet the wiring to Muster's headless client; no Muster numbers are in this file, so no ratios either."
  echo
  echo "## Results"
  echo
} > out/header.md
cat > out/footer.md <<'NOTES'
## How to read this

- **Latency** runs from the moment a move was *due* (its slot in the fixed schedule) to the moment the *last* spectator of that table received the resulting state; it is timed on spectators because a boardgame.io client applies its own move before the server confirms it. A server that is late with one result delays the next move, and that wait counts (no coordinated omission).
- **Bytes** are what the clients' TCP sockets read during the window divided by moves and by clients per table: WebSocket framing and keep-alive traffic included, TCP/IP headers not.
- **CPU per move** is the server's utime + stime over the window (from /proc/<pid>/stat) divided by moves made; it includes whatever the server does besides moves (keep-alive, timers). **RSS per connection** is (VmRSS with every steady-run client connected − VmRSS just after start) / connections.
- **Joins** differ by design: a boardgame.io client opens one WebSocket (engine.io open, namespace connect, `sync`); matches are created on first `sync`, with no lobby call and no credentials. A Colyseus client makes one HTTP matchmaking call then opens its WebSocket (JOIN_ROOM, ack, full state); a reconnect uses the reconnection token (`/matchmake/reconnect`). boardgame.io has no reconnection token: its reconnect is a fresh `sync`.
- **Dice**: boardgame.io rolls with its `random.D6()` (seeded PRNG in the match state); Colyseus has no dice API, the room uses `Math.random()`. Neither is verifiable.
- The driver is a single Rust process (one tokio worker) speaking each peer's wire protocol directly; its own CPU use is in the table so a reader can tell when the driver, not the server, was the limit.
- Two cores are shared with other work on this machine; numbers are indicative of ratios, not absolutes.
NOTES
"$DRIVER" report --header out/header.md --footer out/footer.md --out RESULTS.md "${FILES[@]}"
echo "== wrote $HERE/RESULTS.md"
