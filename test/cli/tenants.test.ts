/**
 * `atrium tenants list` (issue 21, "CLI listing that a self-hoster needs"): every HR client with its applications
 * and every academy with its API keys' ids and dates, on both databases, never a secret nor its hash.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { atrium, json } from '../support/cli.js';
import { dialects, freshDatabase, type TestDatabase } from '../support/harness.js';

interface Listed {
  hr: {
    client_id: string;
    name: string;
    created_at: string;
    applications: {
      application_id: string;
      name: string;
      read_only: boolean;
      created_at: string;
      revoked_at: string | null;
    }[];
  }[];
  academy: {
    acadId: number;
    name: string;
    created_at: string;
    keys: { key_id: number; created_at: string; expires_at: string | null; state: string }[];
  }[];
}

const DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/;

for (const dialect of dialects()) {
  describe(`atrium tenants list (${dialect})`, () => {
    let db: TestDatabase;
    before(async () => {
      db = await freshDatabase(dialect);
    });
    after(() => db.drop());

    it('an empty installation lists nothing, in JSON and in text', async () => {
      assert.deepEqual(json<Listed>(await atrium(db.env, 'tenants', 'list', '--json')), { hr: [], academy: [] });
      const text = await atrium(db.env, 'tenants', 'list');
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /^HR clients: 0\nAcademies: 0\n$/);
    });

    it('lists clients with their applications and academies with their keys, never a secret', async () => {
      const { client_id } = json<{ client_id: string }>(
        await atrium(db.env, 'hr', 'create-client', '--name', 'Acme', '--json'),
      );
      const writer = json<{ application_id: string; application_secret: string }>(
        await atrium(db.env, 'hr', 'create-application', '--client-id', client_id, '--name', 'HRIS sync', '--json'),
      );
      const reader = json<{ application_id: string; application_secret: string }>(
        await atrium(
          db.env,
          'hr',
          'create-application',
          '--client-id',
          client_id,
          '--name',
          'BI',
          '--read-only',
          '--json',
        ),
      );
      json(await atrium(db.env, 'hr', 'revoke-application', '--application-id', reader.application_id, '--json'));
      const other = json<{ client_id: string }>(
        await atrium(db.env, 'hr', 'create-client', '--name', 'Other', '--json'),
      );
      const made = json<{ acadId: number; apikey: string }>(
        await atrium(db.env, 'academy', 'create', '--name', 'Demo academy', '--json'),
      );
      const rotated = json<{ apikey: string }>(
        await atrium(db.env, 'academy', 'rotate-key', '--acad-id', String(made.acadId), '--json'),
      );

      const run = await atrium(db.env, 'tenants', 'list', '--json');
      const listed = json<Listed>(run);
      assert.deepEqual(
        listed.hr.map((c) => [c.client_id, c.name]),
        [
          [client_id, 'Acme'],
          [other.client_id, 'Other'],
        ],
      );
      const acme = listed.hr[0] as Listed['hr'][number];
      assert.match(acme.created_at, DATE_TIME);
      assert.deepEqual(
        acme.applications.map((a) => [a.application_id, a.name, a.read_only, a.revoked_at === null]),
        [
          [writer.application_id, 'HRIS sync', false, true],
          [reader.application_id, 'BI', true, false],
        ],
      );
      assert.match(acme.applications[1]?.revoked_at ?? '', DATE_TIME);
      assert.deepEqual(listed.hr[1]?.applications, []);
      assert.equal(listed.academy.length, 1);
      const academy = listed.academy[0] as Listed['academy'][number];
      assert.equal(academy.acadId, made.acadId);
      assert.equal(academy.name, 'Demo academy');
      assert.deepEqual(
        academy.keys.map((k) => k.state),
        ['grace', 'current'],
        'the rotated key works for its grace period',
      );
      assert.match(academy.keys[0]?.expires_at ?? '', DATE_TIME);
      assert.equal(academy.keys[1]?.expires_at, null);

      const text = await atrium(db.env, 'tenants', 'list');
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /HR clients: 2/);
      assert.match(text.stdout, new RegExp(`${client_id}  Acme`));
      assert.match(text.stdout, new RegExp(`application ${reader.application_id}  BI .*read-only, revoked`));
      assert.match(text.stdout, /Academies: 1/);
      assert.match(text.stdout, new RegExp(`acadId ${made.acadId}  Demo academy`));
      for (const output of [run.stdout, run.stderr, text.stdout, text.stderr]) {
        for (const secret of [writer.application_secret, reader.application_secret, made.apikey, rotated.apikey]) {
          assert.equal(output.includes(secret), false, 'no secret is printed');
        }
        assert.doesNotMatch(output, /hash/i, 'nor a hash of one');
      }
    });

    it('refuses an extra argument as a usage error (exit 2)', async () => {
      const run = await atrium(db.env, 'tenants', 'list', 'extra');
      assert.equal(run.code, 2, run.stderr);
      assert.equal(run.stdout, '');
    });
  });
}
