import { startProcess, measure, settled } from '../bench/lib.ts';
const paths = process.argv.slice(2);
const env = { ...process.env, ATRIUM_DATA_DIR: '/tmp/bdb', ATRIUM_RATE_LIMIT: '0', ATRIUM_ACADEMY_RATE_LIMIT: '0', LOG_LEVEL: 'warn' };
const base = await startProcess('node', ['bench/baseline.mjs', 'json'], env);
const srv = await startProcess('node', ['bench/server.mjs'], env);
await settled(srv.pid);
const settings = { connections: 10, duration: 4, warmup: 2 };
for (let round = 0; round < 2; round++) {
  const b = await measure(base.url, { path: '/' }, settings);
  console.log('baseline', Math.round(b.reqPerSec));
  for (const p of paths) {
    const m = await measure(srv.url, { path: p }, settings);
    console.log(p, Math.round(m.reqPerSec), m.non2xx, (m.reqPerSec / b.reqPerSec).toFixed(2));
  }
}
await srv.stop(); await base.stop();
