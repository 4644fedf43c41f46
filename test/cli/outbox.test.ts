/**
 * `atrium hr outbox` (issue 20, "record outgoing mail in an outbox that the API (extension) and the CLI can read"):
 * a client's mails, newest first, filtered by kind and related object, limited; never another client's; an unknown
 * client is a clear failure.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OutboxRepository } from '../../src/hr/core/outbox/repository.js';
import { loadConfig } from '../../src/platform/config.js';
import { type Database, openDatabase } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import { hrTenantId } from '../../src/platform/db/tenant.js';
import { atrium, json } from '../support/cli.js';
import { dialects, freshDatabase, type TestDatabase } from '../support/harness.js';

interface Listed {
  mails: {
    id: string;
    kind: string;
    to_address: string | null;
    to_name: string;
    subject: string;
    related_id: string | null;
    created_at: string;
  }[];
}

for (const dialect of dialects()) {
  describe(`atrium hr outbox (${dialect})`, () => {
    let tdb: TestDatabase;
    let database: Database;
    let acme: string;
    let other: string;

    before(async () => {
      tdb = await freshDatabase(dialect);
      acme = json<{ client_id: string }>(
        await atrium(tdb.env, 'hr', 'create-client', '--name', 'Acme', '--json'),
      ).client_id;
      other = json<{ client_id: string }>(
        await atrium(tdb.env, 'hr', 'create-client', '--name', 'Other', '--json'),
      ).client_id;
      database = openDatabase(loadConfig({ ...tdb.env }));
      await migrateToLatest(database);
      const outbox = new OutboxRepository(database.db);
      const mail = (id: string, kind: string, relatedId: string) => ({
        id,
        kind,
        toAddress: `${id}@example.com`,
        toName: `Person ${id}`,
        subject: `Subject ${id}`,
        body: `Body ${id}`,
        relatedId,
      });
      await outbox.insert(hrTenantId(acme), [mail('a1', 'signature.invitation', 'p1')], Date.UTC(2026, 10, 1));
      await outbox.insert(hrTenantId(acme), [mail('a2', 'user.invitation', 'u1')], Date.UTC(2026, 10, 2));
      await outbox.insert(hrTenantId(acme), [mail('a3', 'signature.reminder', 'p1')], Date.UTC(2026, 10, 3));
      await outbox.insert(hrTenantId(other), [mail('o1', 'user.invitation', 'u9')], Date.UTC(2026, 10, 4));
    });
    after(async () => {
      await database.close();
      await tdb.drop();
    });

    it('lists a client’s mails, newest first, never another client’s', async () => {
      const listed = json<Listed>(await atrium(tdb.env, 'hr', 'outbox', '--client-id', acme, '--json'));
      assert.deepEqual(
        listed.mails.map((m) => [m.id, m.kind, m.to_address, m.related_id]),
        [
          ['a3', 'signature.reminder', 'a3@example.com', 'p1'],
          ['a2', 'user.invitation', 'a2@example.com', 'u1'],
          ['a1', 'signature.invitation', 'a1@example.com', 'p1'],
        ],
      );
      assert.equal(listed.mails[0]?.created_at, '2026-11-03T00:00:00.000Z');
      const text = await atrium(tdb.env, 'hr', 'outbox', '--client-id', acme);
      assert.equal(text.code, 0, text.stderr);
      assert.match(
        text.stdout,
        /^2026-11-03T00:00:00\.000Z {2}signature\.reminder {2}to Person a3 <a3@example\.com>\n {2}Subject a3\n/,
      );
      assert.doesNotMatch(text.stdout, /o1/);
    });

    it('filters by kind and related object, and limits', async () => {
      const kind = json<Listed>(
        await atrium(tdb.env, 'hr', 'outbox', '--client-id', acme, '--kind', 'user.invitation', '--json'),
      );
      assert.deepEqual(
        kind.mails.map((m) => m.id),
        ['a2'],
      );
      const related = json<Listed>(
        await atrium(tdb.env, 'hr', 'outbox', '--client-id', acme, '--related-id', 'p1', '--limit', '1', '--json'),
      );
      assert.deepEqual(
        related.mails.map((m) => m.id),
        ['a3'],
      );
      const none = await atrium(tdb.env, 'hr', 'outbox', '--client-id', acme, '--kind', 'nothing');
      assert.equal(none.stdout, 'no mail\n');
    });

    it('an unknown client and a bad limit are refused with a clear message', async () => {
      const unknown = await atrium(tdb.env, 'hr', 'outbox', '--client-id', 'nope');
      assert.notEqual(unknown.code, 0);
      assert.match(unknown.stderr, /client "nope" was not found/);
      const limit = await atrium(tdb.env, 'hr', 'outbox', '--client-id', acme, '--limit', '0');
      assert.notEqual(limit.code, 0);
      assert.match(limit.stderr, /--limit.*from 1 to 1000/);
    });
  });
}
