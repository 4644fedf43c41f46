/**
 * The Atrium server the benchmarks measure, in its own process: the built app (`dist/`, what `atrium serve`
 * runs), configured from the environment, plus — only here, never in the product — copies of the employee and
 * request routes under `/bench-noauth/...` that skip the bearer guard (a fixed client instead), to price token
 * verification: the same handlers, authenticated and not.
 *
 * Plain JavaScript run by plain `node`, as `atrium serve` is: a TypeScript loader would add its own memory (about
 * 40 MB) to the RSS the benchmark reports. Every route's schemas are compiled, and the compilation's garbage
 * collected, before it says it listens, so no measurement shares the CPU with the background warm-up `atrium serve`
 * does after listening (start-up is measured separately, with the CLI). `ATRIUM_BENCH_COMPILE_ALL=0` skips that (the
 * dataset builder's server, which only makes a few template rows). `ATRIUM_BENCH_JOB_CONTROL=1` adds
 * `POST /bench-jobs/stop` and `/bench-jobs/start`, which stop and start the server's job runner (the webhooks pass
 * queues deliveries, then times their drain).
 *
 * Prints `Atrium listening on <url>`; SIGTERM closes it.
 */
const dist = new URL('../dist/', import.meta.url);
const load = (file) => import(new URL(file, dist).href);

const { buildApp } = await load('app.js');
const { loadConfig } = await load('platform/config.js');
const { compilePendingSchemas } = await load('platform/http/validation.js');
const { collectGarbage } = await load('platform/memory.js');

const config = loadConfig(process.env, { port: 0, host: '127.0.0.1' });
const app = await buildApp(config);

const noAuthClient = process.env.ATRIUM_BENCH_NOAUTH_CLIENT;
if (noAuthClient) {
  const { employeeItemRoutes } = await load('hr/core/employees/routes.js');
  const { requestRoutes } = await load('hr/people-assist/requests/routes.js');
  const schemas = await load('hr/people-assist/requests/schemas.js');
  const { ErrorBody } = await load('hr/errors.js');
  const { MacroList, MacroDetail } = await load('hr/people-assist/macros/schemas.js');
  const { Employee } = await load('hr/core/employees/schemas.js');
  const { services } = app;
  await app.server.register(
    async (scope) => {
      for (const schema of [
        ErrorBody,
        Employee,
        MacroList,
        MacroDetail,
        schemas.UserSimplified,
        schemas.EmployeeSimplified,
        schemas.RequestFull,
        schemas.RequestFullWithAttachments,
        schemas.RequestComment,
      ]) {
        scope.addSchema(schema);
      }
      // What the bearer guard would set, without reading any token.
      scope.addHook('onRequest', async (request) => {
        request.hrAuth = { clientId: noAuthClient, applicationId: 'bench', readOnly: false, jti: 'bench' };
      });
      await scope.register(employeeItemRoutes, { employees: services.employees });
      await scope.register(requestRoutes, { requests: services.requests, paginator: services.paginator });
    },
    { prefix: '/bench-noauth' },
  );
}

// Issue 23's experiments (bench only, `--experiments`, SQLite): the floor of two ways to answer a requests page
// without presenting each item in JavaScript. `sqljson`: the page's items built as JSON by SQLite itself, with the
// category and custom status names, in one statement that returns one string. `stored`: each item's JSON kept in a
// table of its own (made here, at start, from the same expression), a page read as 20 strings joined by SQLite.
// Both read through their own better-sqlite3 connection, with no cursor, links or filters: what is left when
// the presenter, the serializer and Kysely are gone. The real list's page 1 is measured beside them.
if (process.env.ATRIUM_BENCH_EXPERIMENTS === '1' && noAuthClient) {
  const { Sqlite, sqlitePath } = await load('platform/db/database.js');
  const raw = new Sqlite(sqlitePath(config.dataDir));
  raw.pragma('journal_mode = WAL');
  const date = (column) => `strftime('%Y-%m-%dT%H:%M:%S+00:00', ${column} / 1000, 'unixepoch')`;
  const bool = (expr) => `json(case when ${expr} then 'true' else 'false' end)`;
  const name = `coalesce(
      (select json_extract(n.value, '$.value') from json_each(c.localized_name) n
        where json_extract(n.value, '$.language_code') = 'en-us'),
      (select json_extract(n.value, '$.value') from json_each(c.localized_name) n
        where json_extract(n.value, '$.language_code') = c.original_language_code),
      json_extract(c.localized_name, '$[0].value'))`;
  const item = `json_object(
    'id', r.id, 'request_number', cast(r.request_number as text), 'name', r.name, 'status', r.status,
    'priority', cast(r.priority as text), 'employee_id', r.employee_id, 'creator_id', r.creator_id,
    'closed_by_id', r.closed_by_id, 'organization_ids', json(r.organization_ids), 'form_id', r.form_id,
    'form_data', json(r.form_data),
    'form_files', (select json_group_array(json_object('id', f.id, 'filename', f.filename, 'field_id', f.field_id))
      from pa_request_files f where f.client_id = r.client_id and f.request_id = r.id and f.kind = 'form_file'),
    'due_date', r.due_date,
    'custom_status', case when r.custom_status_id is null then null else json_object('id', r.custom_status_id,
      'name', coalesce((select s.name from pa_custom_statuses s where s.client_id = r.client_id
        and s.id = r.custom_status_id), r.custom_status_id)) end,
    'category', json_object('id', r.category_id, 'name', coalesce((select ${name} from pa_kb_categories c
      where c.client_id = r.client_id and c.id = r.category_id), r.category_id)),
    'feedback', null, 'origin', r.origin, 'read_by_employee', ${bool('r.read_by_employee = 1')},
    'public_comment_count', r.public_comment_count, 'internal_comment_count', r.internal_comment_count,
    'total_comment_count', r.public_comment_count + r.internal_comment_count,
    'public_deleted_comment_count', 0, 'internal_deleted_comment_count', 0, 'total_deleted_comment_count', 0,
    'attachment_count', r.attachment_count, 'read_only', ${bool("r.status = 'archived'")},
    'visible_by_employee', ${bool('r.visible_by_employee = 1')}, 'need_edit_by_employee', json('false'),
    'created_at', ${date('r.created_at')}, 'updated_at', ${date('r.updated_at')},
    'closed_at', ${date('r.closed_at')}, 'archived_at', ${date('r.archived_at')})`;
  const sqlJson = raw
    .prepare(
      `select '[' || coalesce(group_concat(j, ','), '') || ']' from (select ${item} as j from pa_requests r
        where r.client_id = ? order by r.updated_at desc, r.pk desc limit 20)`,
    )
    .pluck();
  raw.exec(`create table if not exists bench_request_json (client_id text not null, updated_at integer not null,
    pk integer not null, json text not null, primary key (client_id, updated_at, pk)) without rowid`);
  raw.exec('delete from bench_request_json');
  raw
    .prepare(`insert into bench_request_json select r.client_id, r.updated_at, r.pk, ${item} from pa_requests r`)
    .run();
  const stored = raw
    .prepare(
      `select '[' || coalesce(group_concat(json, ','), '') || ']' from (select json from bench_request_json
        where client_id = ? order by updated_at desc, pk desc limit 20)`,
    )
    .pluck();
  for (const [path, statement] of [
    ['/bench-experiments/requests-sqljson', sqlJson],
    ['/bench-experiments/requests-stored', stored],
  ]) {
    app.server.get(path, async (_request, reply) => {
      reply.type('application/json; charset=utf-8');
      return statement.get(noAuthClient);
    });
  }
}

// The webhooks pass's control of the job runner (bench only): stopped while deliveries are queued, started again
// when the drain is timed.
if (process.env.ATRIUM_BENCH_JOB_CONTROL === '1') {
  app.server.post('/bench-jobs/stop', async (_request, reply) => {
    await app.services.jobs.stop();
    return reply.status(204).send();
  });
  app.server.post('/bench-jobs/start', async (_request, reply) => {
    app.services.jobs.start();
    return reply.status(204).send();
  });
}

const address = await app.server.listen({ port: 0, host: '127.0.0.1' });
if (process.env.ATRIUM_BENCH_COMPILE_ALL !== '0') {
  await compilePendingSchemas();
  // As `atrium serve` does after its warm-up: the compilation's garbage is not left to the first measurement.
  collectGarbage();
}
process.stdout.write(`Atrium listening on ${address}\n`);
process.on('SIGTERM', () => {
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
