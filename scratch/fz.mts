import { startProcess, measure } from '../bench/lib.ts';
const env = { ...process.env };
const base = await startProcess('node', ['bench/baseline.mjs', 'json'], env);
const f = await startProcess('node', ['scratch/fhello.mjs'], env);
const settings = { connections: 10, duration: 4, warmup: 2 };
for (let round = 0; round < 3; round++) {
  const b = await measure(base.url, { path: '/' }, settings);
  const m = await measure(f.url, { path: '/' }, settings);
  console.log('baseline', Math.round(b.reqPerSec), 'fastify', Math.round(m.reqPerSec), (m.reqPerSec / b.reqPerSec).toFixed(2));
}
await f.stop(); await base.stop();
