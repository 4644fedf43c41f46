/**
 * The webhook receiver of the benchmark's webhooks pass, in its own process (so it shares an event loop neither
 * with the measured server nor with the load generator): `node:http` answering every POST with 204 as soon as its
 * body has arrived, counting the callbacks by path (one path per webhook) and noting when each arrived.
 *
 * `GET /stats` answers `{"count": n, "paths": {"/w/1": {"count": n, "medianGapMs": g}, …}}`: the callbacks since
 * the last `POST /reset`, and per path the median time between two consecutive arrivals (one webhook's deliveries
 * go out one at a time, so that gap is the time one delivery takes, end to end). Prints `Receiver listening on
 * <url>`; SIGTERM closes it.
 */
import http from 'node:http';

let count = 0;
/** Arrival times (performance.now()) by path since the last reset. */
let arrivals = new Map();

function median(values) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const server = http.createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/reset') {
    count = 0;
    arrivals = new Map();
    res.writeHead(204).end();
    return;
  }
  if (req.method === 'GET' && req.url === '/stats') {
    const paths = {};
    for (const [path, times] of arrivals) {
      const gaps = times.slice(1).map((t, i) => t - times[i]);
      paths[path] = { count: times.length, medianGapMs: median(gaps) };
    }
    const body = JSON.stringify({ count, paths });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    return;
  }
  if (req.method !== 'POST') {
    res.writeHead(404).end();
    return;
  }
  req.resume();
  req.on('end', () => {
    count++;
    const path = req.url ?? '/';
    const list = arrivals.get(path) ?? [];
    list.push(performance.now());
    arrivals.set(path, list);
    res.writeHead(204).end();
  });
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`Receiver listening on http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
