import v8 from 'node:v8';
if (process.argv[2] === 'set') v8.setFlagsFromString('--max-semi-space-size=2');
let keep = [];
for (let i = 0; i < 3e6; i++) { keep.push({ a: i, b: 'x' + i }); if (keep.length > 20000) keep = []; }
const ns = v8.getHeapSpaceStatistics().find(s => s.space_name === 'new_space');
console.log(process.argv[2] ?? 'default', Math.round(ns.space_size / 1048576), 'MB new space', Math.round(process.memoryUsage().rss/1048576), 'MB rss');
