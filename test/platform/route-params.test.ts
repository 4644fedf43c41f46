/**
 * Every route with a path parameter declares its schema (platform/http/server.ts checks it as routes register):
 * a parameter is input like any other, checked before a handler or a database sees it. A list's `%00` id had
 * reached PostgreSQL as a 500 before the rule.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import pino from 'pino';
import { loadConfig } from '../../src/platform/config.js';
import { openDatabase } from '../../src/platform/db/database.js';
import { createServer } from '../../src/platform/http/server.js';
import { freshDatabase } from '../support/harness.js';

describe('path parameters', () => {
  const cleanups: (() => Promise<void>)[] = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('a route with one and no params schema does not register; with a schema it does', async () => {
    const tdb = await freshDatabase('sqlite');
    const config = loadConfig({ ...tdb.env, DATABASE_URL: '' });
    const database = openDatabase(config);
    const app = await createServer({ config, database, logger: pino({ level: 'silent' }) });
    cleanups.push(
      () => tdb.drop(),
      () => database.close(),
      () => app.close(),
    );
    assert.throws(
      () => app.get('/things/:id/parts', async () => 'x'),
      /GET \/things\/:id\/parts: its path parameters need a params schema/,
    );
    app.get(
      '/things/:id',
      { schema: { params: Type.Object({ id: Type.String({ maxLength: 10 }) }) } },
      async () => 'x',
    );
    app.get('/plain', async () => 'x');
    await app.ready();
    assert.equal((await app.inject({ method: 'GET', url: '/things/a' })).statusCode, 200);
  });
});
