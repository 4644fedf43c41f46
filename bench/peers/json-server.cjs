/**
 * json-server 0.17 as its CLI runs it with `--quiet` (its default middlewares, no request log), on a free port of
 * 127.0.0.1, printing `listening on <url>` as the bench's other servers do. Used only by `npm run bench -- --peers`.
 *
 *   node bench/peers/json-server.cjs <db.json>
 */
const jsonServer = require('json-server');

const server = jsonServer.create();
server.use(jsonServer.defaults({ logger: false }));
server.use(jsonServer.router(process.argv[2]));
const listener = server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`json-server listening on http://127.0.0.1:${listener.address().port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
