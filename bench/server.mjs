/**
 * The Atrium server the benchmarks measure, in its own process: the built app (`dist/`, what `atrium serve`
 * runs), configured from the environment, plus — only here, never in the product — copies of the employee and
 * request routes under `/bench-noauth/...` that skip the bearer guard (a fixed client instead), to price token
 * verification: the same handlers, authenticated and not.
 *
 * Plain JavaScript run by plain `node`, as `atrium serve` is: a TypeScript loader would add its own memory (about
 * 40 MB) to the RSS the benchmark reports. Every route's schemas are compiled before it says it listens, so no
 * measurement shares the CPU with the background warm-up `atrium serve` does after listening (start-up is
 * measured separately, with the CLI). `ATRIUM_BENCH_COMPILE_ALL=0` skips that (the dataset builder's server, which
 * only makes a few template rows). `ATRIUM_BENCH_JOB_CONTROL=1` adds `POST /bench-jobs/stop` and `/bench-jobs/start`,
 * which stop and start the server's job runner (the webhooks pass queues deliveries, then times their drain).
 *
 * Prints `Atrium listening on <url>`; SIGTERM closes it.
 */
const dist = new URL('../dist/', import.meta.url);
const load = (file) => import(new URL(file, dist).href);

const { buildApp } = await load('app.js');
const { loadConfig } = await load('platform/config.js');
const { compilePendingSchemas } = await load('platform/http/validation.js');

const app = await buildApp(loadConfig(process.env, { port: 0, host: '127.0.0.1' }));

const noAuthClient = process.env.ATRIUM_BENCH_NOAUTH_CLIENT;
if (noAuthClient) {
  const { employeeRoutes } = await load('hr/core/employees/routes.js');
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
      await scope.register(employeeRoutes, { employees: services.employees, paginator: services.paginator });
      await scope.register(requestRoutes, {
        requests: services.requests,
        paginator: services.paginator,
        blobs: services.blobs,
      });
    },
    { prefix: '/bench-noauth' },
  );
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
if (process.env.ATRIUM_BENCH_COMPILE_ALL !== '0') await compilePendingSchemas();
process.stdout.write(`Atrium listening on ${address}\n`);
process.on('SIGTERM', () => {
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
