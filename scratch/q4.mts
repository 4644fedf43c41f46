import Database from 'better-sqlite3';
const db = new Database('/tmp/bdb/atrium.sqlite', { readonly: true });
const emp = db.prepare("select client_id, id, pk from hr_employees order by random() limit 1000").all() as any[];
function time(sql: string, args: (i: number) => any[], method: 'all'|'get'|'raw' = 'raw') {
  const st = db.prepare(sql); if (method==='raw') st.raw(true);
  const f = method === 'get' ? (a: any[]) => st.get(...a) : (a: any[]) => st.all(...a);
  for (let i=0;i<3000;i++) f(args(i));
  const t0 = process.hrtime.bigint(); const N=50000;
  for (let i=0;i<N;i++) f(args(i));
  console.log((Number(process.hrtime.bigint()-t0)/N/1000).toFixed(2), sql.slice(0,90), method);
}
time('select 1', () => []);
time('select ?', (i) => [emp[i%1000].id]);
time('select pk from hr_employees where pk = ?', i => [emp[i%1000].pk]);
time('select pk from hr_employees where client_id = ? and id = ?', i => [emp[i%1000].client_id, emp[i%1000].id]);
time('select pk from hr_employees where client_id = ? and id = ?', i => [emp[i%1000].client_id, emp[i%1000].id], 'get');
time('select pk from hr_employees where client_id = ? and id = ?', i => [emp[0].client_id, emp[0].id]);
time('select * from hr_employees where pk = ?', i => [emp[i%1000].pk]);
console.log(db.pragma('page_size'), db.pragma('cache_size'), Database.prototype.constructor.name, (db as any).open, process.versions);
