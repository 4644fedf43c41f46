import Database from 'better-sqlite3';
const db = new Database('/tmp/bdb/atrium.sqlite', { readonly: true });
const client = db.prepare("select client_id, count(*) n from pa_requests group by client_id order by n desc limit 1").get() as any;
console.log(client);
const cols = (db.prepare("select * from pa_requests limit 1").columns()).map(c => c.name);
console.log(cols.length, cols.join(','));
const row = db.prepare("select * from pa_requests limit 1").get() as any;
for (const [k,v] of Object.entries(row)) console.log(k, typeof v, String(v).length);
function time(label: string, sql: string, raw = true) {
  const st = db.prepare(sql); st.raw(raw);
  for (let i=0;i<2000;i++) st.all(client.client_id, 21);
  const t0 = process.hrtime.bigint(); const N=5000;
  for (let i=0;i<N;i++) st.all(client.client_id, 21);
  console.log(label, (Number(process.hrtime.bigint()-t0)/N/1000).toFixed(1), 'us');
}
time('star', 'select r.* from pa_requests r where r.client_id = ? order by r.updated_at desc, r.pk desc limit ?');
time('pk only', 'select r.pk from pa_requests r where r.client_id = ? order by r.updated_at desc, r.pk desc limit ?');
const some = cols.filter(c => c !== 'search_text').map(c=>'r.'+c).join(',');
time('no search_text', `select ${some} from pa_requests r where r.client_id = ? order by r.updated_at desc, r.pk desc limit ?`);
console.log(db.prepare("explain query plan select r.* from pa_requests r where r.client_id = ? order by r.updated_at desc, r.pk desc limit ?").all('x', 1));
time('pk,id', 'select r.pk, r.id from pa_requests r where r.client_id = ? order by r.updated_at desc, r.pk desc limit ?');
time('pk,status', 'select r.pk, r.status from pa_requests r where r.client_id = ? order by r.updated_at desc, r.pk desc limit ?');
time('pk,created_at', 'select r.pk, r.created_at from pa_requests r where r.client_id = ? order by r.updated_at desc, r.pk desc limit ?');
time('pk,archived_at', 'select r.pk, r.archived_at from pa_requests r where r.client_id = ? order by r.updated_at desc, r.pk desc limit ?');
time('json_array', `select json_array(${cols.filter(c => c !== 'search_text').map(c=>'r.'+c).join(',')}) from pa_requests r where r.client_id = ? order by r.updated_at desc, r.pk desc limit ?`);
time('count(*) 21 rows star sum', `select count(*) from (select r.* from pa_requests r where r.client_id = ? order by r.updated_at desc, r.pk desc limit ?)`);
const st = db.prepare('select r.* from pa_requests r where r.client_id = ? order by r.updated_at desc, r.pk desc limit ?').raw(true);
const rows = st.all(client.client_id, 21) as any[];
console.log(rows.map(r => r[0]).join(','));
