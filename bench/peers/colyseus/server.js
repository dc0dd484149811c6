// Colyseus 0.18 peer for Muster's side-by-side benchmark (bench/).
//
// The game, identical on every server: a table has two seats and any number
// of spectators; the seat whose turn it is moves the counter to a hex and
// rolls a die; every seat and spectator receives the result. Seats alternate.
//
// One Colyseus room per table, its state a @colyseus/schema object. The first
// two clients that join with { role: "player" } take seats 0 and 1; clients
// joining with { role: "spectator" } only watch and never send moves.
// After each accepted move the room calls broadcastPatch() at once, so the
// result goes out without waiting for the patch interval (patchRate stays at
// Colyseus' default, 50 ms; with no changes pending that tick sends nothing).
// A dropped client may come back within 60 s (allowReconnection in onDrop).
//
// Settings, from the environment (bench/run.sh sets them):
//   PORT       listen port (default 8002), bound on 127.0.0.1 only
//   KEEPALIVE  "default": the ws transport's own keep-alive (a WebSocket ping
//              every 3 s, a client dropped after 2 unanswered); "low": pings
//              turned down (pingInterval 600 s)
'use strict';

// @colyseus/core 0.18 asks for Node >= 22 and reads the global WebSocket's
// OPEN constant when a client reconnects; Node 20 has no global WebSocket.
// Give it the `ws` package's class (the one ws-transport runs on).
if (typeof globalThis.WebSocket === 'undefined') {
  globalThis.WebSocket = require('ws').WebSocket;
}

const { Server, Room } = require('@colyseus/core');
const { WebSocketTransport } = require('@colyseus/ws-transport');
const { schema, t } = require('@colyseus/schema');

const PORT = Number(process.env.PORT || 8002);
const KEEPALIVE = process.env.KEEPALIVE || 'default';

// Field order is the wire order: moves (0), q (1), r (2), die (3), turn (4).
const TableState = schema({
  moves: t.uint32().default(0),
  q: t.int8().default(0),
  r: t.int8().default(0),
  die: t.uint8().default(0),
  turn: t.uint8().default(0),
}, 'TableState');

class Table extends Room {
  onCreate() {
    this.state = new TableState();
    this.seats = [null, null];
    this.autoDispose = true;
    this.onMessage('move', (client, hex) => {
      const seat = this.seats.indexOf(client.sessionId);
      if (seat < 0 || seat !== this.state.turn || !hex) return;
      this.state.q = hex.q | 0;
      this.state.r = hex.r | 0;
      // Colyseus has no dice API of its own; Math.random is what a room uses.
      this.state.die = 1 + Math.floor(Math.random() * 6);
      this.state.moves += 1;
      this.state.turn = 1 - seat;
      this.broadcastPatch();
    });
  }

  onJoin(client, options) {
    if (options && options.role === 'player') {
      const free = this.seats.indexOf(null);
      if (free >= 0) this.seats[free] = client.sessionId;
    }
  }

  onDrop(client) {
    return this.allowReconnection(client, 60);
  }

  onLeave(client) {
    const seat = this.seats.indexOf(client.sessionId);
    if (seat >= 0) this.seats[seat] = null;
  }
}

let pingInterval;
if (KEEPALIVE === 'low') {
  pingInterval = 600_000;
} else if (KEEPALIVE !== 'default') {
  console.error(`KEEPALIVE must be "default" or "low", not ${KEEPALIVE}`);
  process.exit(2);
}

const server = new Server({
  transport: new WebSocketTransport(pingInterval === undefined ? {} : { pingInterval }),
  greet: false,
});
server.define('table', Table);
server.listen(PORT, '127.0.0.1').then(() => {
  console.log(`colyseus ready port=${PORT} keepalive=${KEEPALIVE} pid=${process.pid}`);
});
