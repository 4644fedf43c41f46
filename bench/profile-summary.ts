/**
 * `node --import tsx bench/profile-summary.ts FILE.cpuprofile [N]`: the functions and files with the most self
 * time in a V8 CPU profile (from `npm run bench -- --cpu-prof DIR`), to find what a scenario spends its time on.
 * `--last S` counts only the samples of the profile's last S seconds (the measurement, not the start-up), and
 * `--skip-last S` leaves out its final S seconds (a pass's closing `/healthz`).
 */
import fs from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const argv = process.argv.slice(2);
const lastAt = argv.indexOf('--last');
const lastSeconds = lastAt >= 0 ? Number(argv.splice(lastAt, 2)[1]) : Number.POSITIVE_INFINITY;
const skipAt = argv.indexOf('--skip-last');
const skipSeconds = skipAt >= 0 ? Number(argv.splice(skipAt, 2)[1]) : 0;
const [file, top = '30'] = argv;
if (!file) {
  process.stderr.write('usage: profile-summary.ts FILE.cpuprofile [N]\n');
  process.exit(2);
}
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  endTime: number;
  startTime: number;
};
// Sample times, and the hits of each node within the window.
const until = profile.endTime - skipSeconds * 1e6;
const from = until - lastSeconds * 1e6;
const hitsOf = new Map<number, number>();
let at = profile.startTime;
let total = 0;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i] ?? 0;
  if (at < from || at > until) return;
  total++;
  hitsOf.set(id, (hitsOf.get(id) ?? 0) + 1);
});
const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
const short = (url: string) => url.replace(/^file:\/\/.*?\/(node_modules|dist|bench)\//, '$1/') || '(native)';
for (const node of profile.nodes) {
  const hits = hitsOf.get(node.id) ?? 0;
  if (!hits) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const where = short(url);
  const key = `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + hits);
  const pkg = where.startsWith('node_modules/')
    ? where
        .split('/')
        .slice(0, where.includes('/@') ? 3 : 2)
        .join('/')
    : where;
  byFile.set(pkg, (byFile.get(pkg) ?? 0) + hits);
}
const show = (title: string, map: Map<string, number>) => {
  process.stdout.write(`\n${title}\n`);
  for (const [k, v] of [...map].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) {
    process.stdout.write(`${((100 * v) / total).toFixed(1).padStart(6)}%  ${k}\n`);
  }
};
show('self time by function', byFunction);
show('self time by file or package', byFile);
