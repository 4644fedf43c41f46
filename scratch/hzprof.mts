import { startProcess, measure, settled } from '../bench/lib.ts';
const p = process.argv[2] ?? '/healthz';
const env = { ...process.env, ATRIUM_DATA_DIR: '/tmp/bdb', ATRIUM_RATE_LIMIT: '0', ATRIUM_ACADEMY_RATE_LIMIT: '0', LOG_LEVEL: 'warn' };
const srv = await startProcess('node', ['--cpu-prof', '--cpu-prof-dir=/tmp/hzprof', 'bench/server.mjs'], env);
await settled(srv.pid);
const m = await measure(srv.url, { path: p }, { connections: 10, duration: 6, warmup: 1 });
console.log(p, Math.round(m.reqPerSec));
await srv.stop();
