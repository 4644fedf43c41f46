#!/usr/bin/env -S node --max-semi-space-size=4
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { Logger } from 'pino';
import { createServices } from '../app.js';
import { ConfigError, loadConfig } from '../platform/config.js';
import { openDatabase } from '../platform/db/database.js';
import { migrateToLatest } from '../platform/db/migrate.js';
import { DomainError, InvalidRequestError } from '../platform/errors.js';
import { stderrLogger } from '../platform/logger.js';
import { MasterKeyError } from '../platform/security/secret-box.js';
import { doctor, formatDoctor } from './doctor.js';
import { seed } from './seed.js';
import { serve } from './serve.js';

const USAGE = `Usage: atrium <command> [options]

Commands:
  serve [--port N] [--host H] [--workers N]
                                     serve both APIs (what npm start runs); N processes
  migrate                            apply pending database migrations
  doctor [--json]                    check the master key and the permissions of the data files;
                                     exits 1 when something is wrong (docs/security.md)
  hr create-client --name NAME [--json]
  hr create-application --client-id ID --name NAME [--read-only] [--json]
  hr revoke-application --application-id ID [--json]
  hr rotate-signing-key [--revoke-previous] [--json]
                                     sign new tokens with a new key; --revoke-previous refuses
                                     tokens of the older keys at once (a leaked key)
  academy create --name NAME [--json]
  academy rotate-key --acad-id N [--json]
  academy import --acad-id N --file PATH [--json]
                                     upsert users, categories, courses, curriculums and venues
                                     from a JSON file (docs/academy-directory.md)
  seed [--json]                      fill demo tenants and print their credentials

Every command reads ATRIUM_DATA_DIR or DATABASE_URL, like the server.
With --json, standard output carries only the JSON document.`;

class UsageError extends Error {}

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  workers: { type: 'string' },
  name: { type: 'string' },
  'client-id': { type: 'string' },
  'application-id': { type: 'string' },
  'read-only': { type: 'boolean' },
  'revoke-previous': { type: 'boolean' },
  'acad-id': { type: 'string' },
  file: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

function academyId(values: Record<string, unknown>): number {
  const raw = required(values, 'acad-id');
  if (!/^[0-9]{1,9}$/.test(raw)) throw new UsageError('--acad-id must be an academy id (an integer)');
  return Number(raw);
}

function output(json: boolean, data: object, human: string): void {
  process.stdout.write(json ? `${JSON.stringify(data)}\n` : `${human}\n`);
}

async function withServices<T>(
  log: Logger,
  work: (services: Awaited<ReturnType<typeof createServices>>) => Promise<T>,
): Promise<T> {
  const config = loadConfig();
  const database = openDatabase(config);
  try {
    await migrateToLatest(database);
    return await work(await createServices(database, config, log));
  } finally {
    await database.close();
  }
}

function serveCommand(values: Record<string, unknown>): Promise<void> {
  const overrides: { port?: number; host?: string; workers?: number } = {};
  if (typeof values.port === 'string') {
    if (!/^\d+$/.test(values.port) || Number(values.port) > 65535) throw new UsageError('--port must be a port number');
    overrides.port = Number(values.port);
  }
  if (typeof values.host === 'string') overrides.host = values.host;
  if (typeof values.workers === 'string') {
    if (!/^\d+$/.test(values.workers) || Number(values.workers) < 1 || Number(values.workers) > 256) {
      throw new UsageError('--workers must be a number of processes (1 to 256)');
    }
    overrides.workers = Number(values.workers);
  }
  return serve(loadConfig(process.env, overrides));
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const json = values.json === true;
  const log = stderrLogger(process.env.LOG_LEVEL ?? 'warn');
  const [command, sub] = positionals;
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  switch (command) {
    case 'serve':
      return serveCommand(values);
    case 'migrate': {
      const config = loadConfig();
      const database = openDatabase(config);
      try {
        const applied = await migrateToLatest(database);
        output(json, { applied }, applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
      } finally {
        await database.close();
      }
      return;
    }
    case 'doctor': {
      const report = await doctor(loadConfig());
      output(json, report, formatDoctor(report));
      if (!report.ok) process.exitCode = 1;
      return;
    }
    case 'seed': {
      const result = await withServices(log, (services) => seed(services));
      output(json, result, JSON.stringify(result, null, 2));
      return;
    }
    case 'academy':
      return withServices(log, async (services) => {
        switch (sub) {
          case 'create': {
            const result = await services.academies.create(required(values, 'name'));
            output(
              json,
              result,
              `acadId: ${result.acadId}\napikey: ${result.apikey}\nsuperAdminId: ${result.superAdminId}\n(the key is shown only now)`,
            );
            return;
          }
          case 'rotate-key': {
            const result = await services.academies.rotateKey(academyId(values));
            output(
              json,
              result,
              `acadId: ${result.acadId}\napikey: ${result.apikey}\nprevious keys stop working at ${result.previousKeysExpireAt}`,
            );
            return;
          }
          case 'import': {
            const acadId = academyId(values);
            const file = required(values, 'file');
            let text: string;
            try {
              text = await readFile(file, 'utf8');
            } catch (err) {
              throw new InvalidRequestError(`cannot read ${file}: ${(err as Error).message}`);
            }
            const imported = await services.directory.importText(acadId, text);
            output(
              json,
              { acadId, imported },
              `academy ${acadId}: imported ${Object.entries(imported)
                .map(([section, n]) => `${n} ${section}`)
                .join(', ')}`,
            );
            return;
          }
          default:
            throw new UsageError(`unknown academy command "${sub ?? ''}"`);
        }
      });
    case 'hr':
      return withServices(log, async (services) => {
        switch (sub) {
          case 'create-client': {
            const result = await services.tenants.createClient(required(values, 'name'));
            output(json, result, `client_id: ${result.client_id}`);
            return;
          }
          case 'create-application': {
            const result = await services.tenants.createApplication(
              required(values, 'client-id'),
              required(values, 'name'),
              values['read-only'] === true,
            );
            output(
              json,
              result,
              `client_id: ${result.client_id}\napplication_id: ${result.application_id}\napplication_secret: ${result.application_secret}\n(the secret is shown only now)`,
            );
            return;
          }
          case 'revoke-application': {
            const id = required(values, 'application-id');
            await services.tenants.revokeApplication(id);
            output(json, { application_id: id, revoked: true }, `revoked application ${id}`);
            return;
          }
          case 'rotate-signing-key': {
            const revokePrevious = values['revoke-previous'] === true;
            const kid = await services.auth.rotateSigningKey({ revokePrevious });
            output(
              json,
              { kid, previousKeysRevoked: revokePrevious },
              revokePrevious
                ? `now signing with key ${kid}; tokens signed with the previous keys are refused from now on`
                : `now signing with key ${kid}; the previous key verifies its tokens until they expire`,
            );
            return;
          }
          default:
            throw new UsageError(`unknown hr command "${sub ?? ''}"`);
        }
      });
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    process.stderr.write(`atrium: ${(err as Error).message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  if (err instanceof ConfigError || err instanceof DomainError || err instanceof MasterKeyError) {
    process.stderr.write(`atrium: ${(err as Error).message}\n`);
    process.exit(1);
  }
  process.stderr.write(`atrium: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
