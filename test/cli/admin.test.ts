/**
 * `atrium admin …`: operator tokens (printed once, stored as a hash, listed without secrets, revoked) and the admin
 * audit log, on both databases; and the tokens' verification, which the admin API's guard will use.
 */

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createAdmin } from '../../src/admin/index.js';
import { openDatabase } from '../../src/platform/db/database.js';
import { ViewPasses } from '../../src/platform/security/view-pass.js';
import { Clock } from '../../src/platform/time.js';
import { atrium, json } from '../support/cli.js';
import { dialects, freshDatabase, type TestDatabase } from '../support/harness.js';

/** What a token made without --tenant or --read-only lists: every tenant, changes allowed. */
const everyTenant = { tenants: null, read_only: false };

interface Token {
  token_id: string;
  name: string;
  created_at: string;
  revoked_at: string | null;
}

for (const dialect of dialects()) {
  describe(`atrium admin (${dialect})`, () => {
    let db: TestDatabase;
    before(async () => {
      db = await freshDatabase(dialect);
    });
    after(() => db.drop());

    const open = () =>
      openDatabase({ dataDir: db.env.ATRIUM_DATA_DIR as string, databaseUrl: db.env.DATABASE_URL, dbPoolSize: 2 });

    it('create-token prints the token once, stores its SHA-256 only; list-tokens and audit-log never show it', async () => {
      const made = json<Token & { token: string }>(
        await atrium(db.env, 'admin', 'create-token', '--name', 'CI', '--json'),
      );
      assert.equal(made.name, 'CI');
      assert.equal(made.revoked_at, null);
      assert.match(made.token, /^atrium_admin_[A-Za-z0-9_-]{43}$/);
      const second = json<Token & { token: string }>(
        await atrium(db.env, 'admin', 'create-token', '--name', 'Console', '--json'),
      );
      assert.notEqual(second.token, made.token);

      const database = open();
      try {
        const rows = await database.db.selectFrom('admin_tokens').selectAll().orderBy('created_at').execute();
        assert.deepEqual(
          rows.map((r) => [r.id, r.name, r.token_hash]),
          [
            [made.token_id, 'CI', createHash('sha256').update(made.token).digest('hex')],
            [second.token_id, 'Console', createHash('sha256').update(second.token).digest('hex')],
          ],
        );
        assert.ok(!JSON.stringify(rows).includes(made.token.slice(13)), 'the token itself is nowhere');
      } finally {
        await database.close();
      }

      const listed = await atrium(db.env, 'admin', 'list-tokens', '--json');
      assert.deepEqual(json<{ tokens: Token[] }>(listed).tokens, [
        { token_id: made.token_id, name: 'CI', created_at: made.created_at, revoked_at: null, ...everyTenant },
        { token_id: second.token_id, name: 'Console', created_at: second.created_at, revoked_at: null, ...everyTenant },
      ]);
      const words = await atrium(db.env, 'admin', 'list-tokens');
      assert.equal(words.code, 0, words.stderr);
      assert.match(words.stdout, /^admin tokens: 2\n {2}\S+ {2}CI {2}\(created /);
      assert.ok(!words.stdout.includes(made.token) && !listed.stdout.includes(made.token));

      const log = json<{ actions: { actor: string; action: string; target: string; detail: unknown }[] }>(
        await atrium(db.env, 'admin', 'audit-log', '--json'),
      );
      assert.deepEqual(
        log.actions.map((a) => [a.actor, a.action, a.target, a.detail]),
        [
          ['cli', 'admin_token.created', second.token_id, { name: 'Console', tenants: null, read_only: false }],
          ['cli', 'admin_token.created', made.token_id, { name: 'CI', tenants: null, read_only: false }],
        ],
      );
      assert.ok(!JSON.stringify(log).includes(made.token));
    });

    it('verify takes a live token only; revoke-token refuses it from then on, once, and is logged', async () => {
      const made = json<Token & { token: string }>(
        await atrium(db.env, 'admin', 'create-token', '--name', 'to revoke', '--json'),
      );
      const database = open();
      try {
        const unused = async (): Promise<never> => {
          throw new Error('not used here');
        };
        const nobody = {
          list: async () => [],
          requireClient: async () => {},
          requireAcademy: async () => {},
          createClient: unused,
          createApplication: unused,
          revokeApplication: unused,
          create: unused,
          rotateKey: unused,
        };
        const admin = createAdmin({
          db: database.db,
          journal: { db: () => database.db, separate: false, close: async () => {} },
          clock: new Clock(),
          tenants: nobody,
          academies: nobody,
          webhooks: { redeliver: unused },
          eventTriggers: { trigger: unused },
          settings: { resolve: unused, change: unused, stage: unused, findUpdate: unused },
          viewPasses: new ViewPasses('unused'),
          operationIds: () => new Set(),
          requestLog: { enabled: false, bodyBytes: 0, maxRows: 1, maxBytes: 1, retentionHours: 1, bodies: [] },
          blobs: { deleteIfUnreferenced: async () => false, read: unused, put: unused },
        });
        assert.equal((await admin.adminTokens.verify(made.token))?.id, made.token_id);
        assert.equal(await admin.adminTokens.verify(`${made.token.slice(0, -1)}x`), undefined, 'one character off');
        assert.equal(await admin.adminTokens.verify(made.token.slice(13)), undefined, 'without its prefix');
        assert.equal(await admin.adminTokens.verify(''), undefined);

        const revoked = json<Token>(await atrium(db.env, 'admin', 'revoke-token', '--id', made.token_id, '--json'));
        assert.equal(revoked.token_id, made.token_id);
        assert.match(revoked.revoked_at ?? '', /^\d{4}-\d{2}-\d{2}T/);
        assert.equal(await admin.adminTokens.verify(made.token), undefined, 'refused once revoked');
        // Again: the same answer, and no second entry in the log.
        const again = json<Token>(await atrium(db.env, 'admin', 'revoke-token', '--id', made.token_id, '--json'));
        assert.equal(again.revoked_at, revoked.revoked_at);
        const log = await admin.adminAudit.list(10);
        assert.deepEqual(
          log.filter((a) => a.target === made.token_id).map((a) => a.action),
          ['admin_token.revoked', 'admin_token.created'],
        );
      } finally {
        await database.close();
      }
      const unknown = await atrium(db.env, 'admin', 'revoke-token', '--id', 'no-such-token');
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /admin token "no-such-token" was not found/);
    });
  });
}
