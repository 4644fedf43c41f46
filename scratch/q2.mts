import Database from 'better-sqlite3';
const db = new Database('/tmp/bdb/atrium.sqlite', { readonly: true });
const emp = db.prepare("select client_id, id from hr_employees order by random() limit 1000").all() as any[];
function time(label: string, sql: string, args: (i: number) => any[], raw = true) {
  const st = db.prepare(sql); st.raw(raw);
  console.log(db.prepare('explain query plan ' + sql).all(...args(0)).map((r: any) => r.detail).join(' | '));
  for (let i=0;i<3000;i++) st.all(...args(i));
  const t0 = process.hrtime.bigint(); const N=20000;
  for (let i=0;i<N;i++) st.all(...args(i));
  console.log(label, (Number(process.hrtime.bigint()-t0)/N/1000).toFixed(1), 'us');
}
time('emp', 'select * from "hr_employees" where "client_id" = ? and "id" = ?', i => [emp[i%1000].client_id, emp[i%1000].id]);
time('emp pk', 'select pk from "hr_employees" where "client_id" = ? and "id" = ?', i => [emp[i%1000].client_id, emp[i%1000].id]);
time('reg', 'select * from "hr_employee_registrations" where "client_id" = ? and "employee_id" in (?) order by "employee_id", "position"', i => [emp[i%1000].client_id, emp[i%1000].id]);
const cols = db.prepare('select * from hr_employees limit 1').columns().map(c => c.name);
console.log(cols.length, cols.join(','));
console.log(db.prepare("select sql from sqlite_master where tbl_name in ('hr_employees','hr_employee_registrations')").all().map((r: any)=>r.sql).join('\n'));
