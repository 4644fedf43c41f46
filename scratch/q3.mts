import Database from 'better-sqlite3';
for (const setup of ['', 'cache_size = -65536', 'mmap_size = 268435456', 'cache_size = -16384']) {
const db = new Database('/tmp/bdb/atrium.sqlite', { readonly: true });
if (setup) db.pragma(setup);
const emp = db.prepare("select client_id, id from hr_employees order by random() limit 1000").all() as any[];
const client = (db.prepare("select client_id from pa_requests limit 1").get() as any).client_id;
function time(label: string, sql: string, args: (i: number) => any[], raw = true) {
  const st = db.prepare(sql); st.raw(raw);
  for (let i=0;i<3000;i++) st.all(...args(i));
  const t0 = process.hrtime.bigint(); const N=20000;
  for (let i=0;i<N;i++) st.all(...args(i));
  return (Number(process.hrtime.bigint()-t0)/N/1000).toFixed(1);
}
const ctr = 0;
console.log(setup || 'default',
 'emp', time('emp', 'select * from "hr_employees" where "client_id" = ? and "id" = ?', i => [emp[i%1000].client_id, emp[i%1000].id]),
 'emp pk', time('emp pk', 'select pk from "hr_employees" where "client_id" = ? and "id" = ?', i => [emp[i%1000].client_id, emp[i%1000].id]),
 'const', time('const', 'select 1', i => []),
 'list', time('list', 'select r.* from pa_requests r where r.client_id = ? order by r.updated_at desc, r.pk desc limit ?', i => [client, 21]),
);
db.close();
}
