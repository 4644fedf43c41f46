import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { atrium, json, type Served, serve } from '../support/cli.js';
import { dialects, freshDatabase, sleep, type TestDatabase } from '../support/harness.js';

interface Created {
  acadId: number;
  apikey: string;
  superAdminId: number;
}

for (const dialect of dialects()) {
  describe(`atrium academy CLI (${dialect})`, () => {
    let db: TestDatabase;
    let server: Served;
    let file: string;
    const users = (url: string, acadId: number, apikey: string) =>
      fetch(`${url}/v1/users?acadId=${acadId}&apikey=${apikey}`);

    before(async () => {
      db = await freshDatabase(dialect);
      assert.equal((await atrium(db.env, 'migrate', '--json')).code, 0);
      server = await serve(db.env);
      file = path.join(db.env.ATRIUM_DATA_DIR as string, 'directory.json');
      fs.writeFileSync(
        file,
        JSON.stringify({
          users: [
            { id: 2, firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.test' },
            { id: 3, firstname: 'Alan', lastname: 'Turing', email: 'alan@example.test', role: 'instructor' },
          ],
          categories: [{ id: 10, name: 'Safety' }],
          courses: [{ id: 500, title: 'Fire safety', categoryIds: [10] }],
          curriculums: [{ id: 600, title: 'Path', categoryId: 10 }],
          venues: [{ id: 700, name: 'Main Hall', seats: 40 }],
        }),
      );
    });
    after(async () => {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
      await db.drop();
    });

    it('academy create --json prints exactly {acadId, apikey, superAdminId}', async () => {
      const created = json<Created>(await atrium(db.env, 'academy', 'create', '--name', 'Acme Academy', '--json'));
      assert.deepEqual(Object.keys(created), ['acadId', 'apikey', 'superAdminId']);
      assert.ok(Number.isInteger(created.acadId));
      assert.equal(created.superAdminId, 1);
      assert.ok(created.apikey.length >= 40);
      assert.equal((await users(server.url, created.acadId, created.apikey)).status, 200);
    });

    it('academy import --json upserts the file and prints the counts; running it again changes nothing', async () => {
      const { acadId, apikey } = json<Created>(await atrium(db.env, 'academy', 'create', '--name', 'Imp', '--json'));
      for (let i = 0; i < 2; i++) {
        const result = json<{ acadId: number; imported: Record<string, number> }>(
          await atrium(db.env, 'academy', 'import', '--acad-id', String(acadId), '--file', file, '--json'),
        );
        assert.deepEqual(result, {
          acadId,
          imported: { users: 2, categories: 1, courses: 1, curriculums: 1, venues: 1, content: 0, enrollments: 0 },
        });
        const res = await users(server.url, acadId, apikey);
        assert.equal(res.status, 200);
        assert.deepEqual(
          ((await res.json()) as { id: number }[]).map((u) => u.id),
          [1, 2, 3],
        );
      }
      const human = await atrium(db.env, 'academy', 'import', '--acad-id', String(acadId), '--file', file);
      assert.equal(human.code, 0, human.stderr);
      assert.match(
        human.stdout,
        /imported 2 users, 1 category, 1 course, 1 curriculum, 1 venue, 0 content, 0 enrollments\n$/,
      );
    });

    // Missing options (exit 2) are tested once, without a database, in usage.test.ts.
    it('academy import: unknown academy and bad files exit 1 with a message', async () => {
      const unknown = await atrium(db.env, 'academy', 'import', '--acad-id', '999999', '--file', file, '--json');
      assert.equal(unknown.code, 1);
      assert.equal(unknown.stdout, '');
      assert.match(unknown.stderr, /not found/);

      const { acadId } = json<Created>(await atrium(db.env, 'academy', 'create', '--name', 'Bad', '--json'));
      const bad = path.join(db.env.ATRIUM_DATA_DIR as string, 'bad.json');
      fs.writeFileSync(bad, JSON.stringify({ courses: [{ id: 1, title: 'X', categoryIds: [42] }] }));
      const refused = await atrium(db.env, 'academy', 'import', '--acad-id', String(acadId), '--file', bad);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /courses\.0\.categoryIds\.0/);
      const missing = await atrium(db.env, 'academy', 'import', '--acad-id', String(acadId), '--file', `${bad}.nope`);
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /cannot read/);
    });

    it('academy rotate-key: the old key works during the grace period, then 401; the new key works', async () => {
      const created = json<Created>(await atrium(db.env, 'academy', 'create', '--name', 'Rot', '--json'));
      assert.equal((await users(server.url, created.acadId, created.apikey)).status, 200);
      const rotated = json<{ acadId: number; apikey: string; previousKeysExpireAt: string }>(
        await atrium(
          { ...db.env, ATRIUM_KEY_GRACE_SECONDS: '3' },
          'academy',
          'rotate-key',
          '--acad-id',
          String(created.acadId),
          '--json',
        ),
      );
      assert.equal(rotated.acadId, created.acadId);
      assert.notEqual(rotated.apikey, created.apikey);
      assert.ok(!Number.isNaN(Date.parse(rotated.previousKeysExpireAt)));
      // Right after the rotation the old key still works. The CLI's exit usually leaves most of the 3 s grace; on a
      // machine so loaded (a whole suite on two cores) that less than a second remains, that one check is skipped.
      if (Date.now() < Date.parse(rotated.previousKeysExpireAt) - 1000) {
        assert.equal((await users(server.url, created.acadId, created.apikey)).status, 200);
      }
      assert.equal((await users(server.url, created.acadId, rotated.apikey)).status, 200);
      await sleep(Math.max(0, Date.parse(rotated.previousKeysExpireAt) - Date.now()) + 1500);
      assert.equal((await users(server.url, created.acadId, created.apikey)).status, 401);
      assert.equal((await users(server.url, created.acadId, rotated.apikey)).status, 200);
    });
  });
}
