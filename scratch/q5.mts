import Database from 'better-sqlite3';
for (const mode of ['normal', 'exclusive', 'txn']) {
const db = new Database('/tmp/bdb/copy.sqlite');
db.pragma('journal_mode = WAL');
if (mode === 'exclusive') db.pragma('locking_mode = EXCLUSIVE');
const emp = db.prepare("select client_id, id, pk from hr_employees order by random() limit 1000").all() as any[];
if (mode === 'txn') db.prepare('begin').run();
function time(sql: string, args: (i: number) => any[]) {
  const st = db.prepare(sql); st.raw(true);
  for (let i=0;i<3000;i++) st.all(...args(i));
  const t0 = process.hrtime.bigint(); const N=50000;
  for (let i=0;i<N;i++) st.all(...args(i));
  return (Number(process.hrtime.bigint()-t0)/N/1000).toFixed(2);
}
console.log(mode, time('select pk from hr_employees where pk = ?', i => [emp[i%1000].pk]), time('select * from hr_employees where client_id = ? and id = ?', i => [emp[i%1000].client_id, emp[i%1000].id]));
if (mode === 'txn') db.prepare('commit').run();
db.close();
}
