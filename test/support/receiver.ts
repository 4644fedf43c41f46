/**
 * A real HTTP receiver for webhook tests: it records every callback (method, headers, exact body) and answers
 * as the test tells it (a status per call, or a hang).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** The status of the next answers: each call takes the first (the last stays); `'hang'` never answers. */
  answers: (number | 'hang')[];
  /** Resolves once `count` callbacks have arrived (or rejects after `timeoutMs`, a bound, not an assertion). */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(answers: (number | 'hang')[] = [200]): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const hanging = new Set<http.ServerResponse>();
  const state = { answers };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      for (const w of [...waiters]) if (received.length >= w.count) w.resolve();
      const answer = state.answers.length > 1 ? state.answers.shift() : state.answers[0];
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(answer ?? 200, { 'content-type': 'text/plain' }).end(`answer ${answer}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    get answers() {
      return state.answers;
    },
    set answers(list) {
      state.answers = list;
    },
    waitFor(count, timeoutMs = 20_000) {
      if (received.length >= count) return Promise.resolve(received);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${received.length} of ${count} callbacks arrived`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(received);
          },
        });
      });
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
