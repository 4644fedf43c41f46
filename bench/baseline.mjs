/**
 * The benchmarks' yardstick: a bare node:http server, in its own process, run by plain `node` as the measured
 * server is.
 *
 *   baseline.mjs json         answers {"hello":"world"} to every request
 *   baseline.mjs file <path>  streams the file from disk to every request
 */
import fs from 'node:fs';
import http from 'node:http';

const [mode, file] = process.argv.slice(2);

const server =
  mode === 'file' && file
    ? http.createServer((_req, res) => {
        const { size } = fs.statSync(file);
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': size });
        fs.createReadStream(file).pipe(res);
      })
    : http.createServer((_req, res) => {
        const body = JSON.stringify({ hello: 'world' });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      });

server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`baseline (${mode}) listening on http://127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
