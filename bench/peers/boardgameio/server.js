// boardgame.io 0.50.2 peer for Muster's side-by-side benchmark (bench/).
//
// The game, identical on every server: a table has two seats and any number
// of spectators; the seat whose turn it is moves the counter to a hex and
// rolls a die; every seat and spectator receives the result. The turn passes
// after one move (turn.maxMoves = 1), so seats alternate.
//
// Settings, from the environment (bench/run.sh sets them):
//   PORT         listen port (default 8001), bound on 127.0.0.1 only
//   DELTA_STATE  "1": game.deltaState = true (clients get RFC 6902 patches);
//                otherwise the full state is sent after every move
//   KEEPALIVE    "default": boardgame.io's own socket.io settings
//                (pingInterval 10 s, pingTimeout 20 s, set in its SocketIO
//                transport); "low": pings turned down (pingInterval 600 s,
//                pingTimeout 600 s, passed through SocketIO({ socketOpts }))
//
// Matches are created on demand by the first client that syncs into a match
// ID (boardgame.io's Master.onSync does this for unknown IDs), so no lobby
// HTTP round trips are in the measured path; such matches carry no
// credentials, so boardgame.io does not authenticate moves on them.
'use strict';

const { Server, SocketIO } = require('boardgame.io/server');

const PORT = Number(process.env.PORT || 8001);
const DELTA_STATE = process.env.DELTA_STATE === '1';
const KEEPALIVE = process.env.KEEPALIVE || 'default';

const Muster = {
  name: 'muster',
  deltaState: DELTA_STATE,
  setup: () => ({ q: 0, r: 0, die: 0, moves: 0 }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    // hex: { q, r } axial coordinates, integers in a small board.
    move: ({ G, random }, hex) => {
      G.q = hex.q | 0;
      G.r = hex.r | 0;
      G.die = random.D6();
      G.moves += 1;
    },
  },
};

let socketOpts;
if (KEEPALIVE === 'low') {
  socketOpts = { pingInterval: 600_000, pingTimeout: 600_000 };
} else if (KEEPALIVE !== 'default') {
  console.error(`KEEPALIVE must be "default" or "low", not ${KEEPALIVE}`);
  process.exit(2);
}

const server = Server({
  games: [Muster],
  transport: new SocketIO({ socketOpts }),
  origins: ['http://127.0.0.1'],
});

// Bind on loopback only: koa-socket-2 patched app.listen to forward its
// arguments to the http server, so a host can ride along with the port.
const listen = server.app.listen;
server.app.listen = (port, cb) => listen.call(server.app, port, '127.0.0.1', cb);

server.run({ port: PORT, callback: () => {
  console.log(`boardgame.io ready port=${PORT} deltaState=${DELTA_STATE} keepalive=${KEEPALIVE} pid=${process.pid}`);
} });
