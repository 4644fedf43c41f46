/**
 * The Atrium server the benchmarks measure, in its own process: the built app (`dist/`, what `atrium serve`
 * runs), configured from the environment, plus — only here, never in the product — copies of the employee and
 * request routes under `/bench-noauth/...` that skip the bearer guard (a fixed client instead), to price token
 * verification: the same handlers, authenticated and not.
 *
 * Prints `Atrium listening on <url>`; SIGTERM closes it.
 */
import type { FastifyInstance } from 'fastify';

type AppModule = typeof import('../src/app.js');
type ConfigModule = typeof import('../src/platform/config.js');
type EmployeeRoutesModule = typeof import('../src/hr/employees/routes.js');
type RequestRoutesModule = typeof import('../src/hr/requests/routes.js');
type RequestSchemasModule = typeof import('../src/hr/requests/schemas.js');
type ErrorsModule = typeof import('../src/hr/errors.js');
type MacroSchemasModule = typeof import('../src/hr/macros/schemas.js');
type ValidationModule = typeof import('../src/platform/http/validation.js');

const dist = new URL('../dist/', import.meta.url);
const load = <T>(file: string): Promise<T> => import(new URL(file, dist).href) as Promise<T>;

const { buildApp } = await load<AppModule>('app.js');
const { loadConfig } = await load<ConfigModule>('platform/config.js');

const app = await buildApp(loadConfig(process.env, { port: 0, host: '127.0.0.1' }));

const noAuthClient = process.env.ATRIUM_BENCH_NOAUTH_CLIENT;
if (noAuthClient) {
  const { employeeRoutes } = await load<EmployeeRoutesModule>('hr/employees/routes.js');
  const { requestRoutes } = await load<RequestRoutesModule>('hr/requests/routes.js');
  const schemas = await load<RequestSchemasModule>('hr/requests/schemas.js');
  const { ErrorBody } = await load<ErrorsModule>('hr/errors.js');
  const { MacroList, MacroDetail } = await load<MacroSchemasModule>('hr/macros/schemas.js');
  const { services } = app;
  await app.server.register(
    async (scope: FastifyInstance) => {
      for (const schema of [
        ErrorBody,
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

const address = await app.server.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`Atrium listening on ${address}\n`);
// As `atrium serve` does: the route schemas not used yet compile in the background.
const { compilePendingSchemas } = await load<ValidationModule>('platform/http/validation.js');
compilePendingSchemas().catch((err: unknown) => app.server.log.error({ err }, 'a route schema does not compile'));
process.on('SIGTERM', () => {
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
