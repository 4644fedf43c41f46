/** `GET /version`: the version and the commit that is running (issue 17, item 17). */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { commitOf } from '../../src/platform/build-info.js';
import { dialects, startServer, type TestServer } from '../support/harness.js';
import { ROOT } from '../support/root.js';

describe('GET /version', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer(dialects()[0] ?? 'sqlite');
  });
  after(() => server.close());

  it('answers the package version, the checkout’s commit and the Node version', async () => {
    const res = await fetch(`${server.url}/version`);
    assert.equal(res.status, 200);
    const body = (await res.json()) as { version: string; commit: string | null; node: string };
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    assert.equal(body.version, pkg.version);
    assert.equal(body.node, process.version);
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    assert.equal(body.commit, head);
  });

  it('reads a detached HEAD, a loose ref and a packed ref, in a clone or a worktree checkout; anything else is null', () => {
    const git = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-git-'));
    try {
      const a = 'a'.repeat(40);
      const b = 'b'.repeat(40);
      fs.writeFileSync(path.join(git, 'HEAD'), `${a}\n`);
      assert.equal(commitOf(git), a);
      fs.mkdirSync(path.join(git, 'refs/heads'), { recursive: true });
      fs.writeFileSync(path.join(git, 'HEAD'), 'ref: refs/heads/main\n');
      fs.writeFileSync(path.join(git, 'refs/heads/main'), `${b}\n`);
      assert.equal(commitOf(git), b);
      fs.rmSync(path.join(git, 'refs/heads/main'));
      fs.writeFileSync(path.join(git, 'packed-refs'), `# pack-refs\n${a} refs/heads/main\n`);
      assert.equal(commitOf(git), a);
      // A `git worktree` checkout: `.git` is a file naming its own directory, whose HEAD names a branch of the
      // repository's common directory.
      const worktree = path.join(git, 'worktrees/other');
      fs.mkdirSync(worktree, { recursive: true });
      fs.writeFileSync(path.join(worktree, 'HEAD'), 'ref: refs/heads/feature\n');
      fs.writeFileSync(path.join(worktree, 'commondir'), '../..\n');
      fs.writeFileSync(path.join(git, 'refs/heads/feature'), `${b}\n`);
      const dotGit = path.join(git, 'checkout.git');
      fs.writeFileSync(dotGit, 'gitdir: worktrees/other\n');
      assert.equal(commitOf(dotGit), b);
      fs.rmSync(path.join(git, 'refs/heads/feature'));
      fs.appendFileSync(path.join(git, 'packed-refs'), `${a} refs/heads/feature\n`);
      assert.equal(commitOf(dotGit), a, 'a packed ref of the common directory');
      fs.writeFileSync(path.join(git, 'HEAD'), 'ref: ../../etc/passwd\n');
      assert.equal(commitOf(git), null);
      assert.equal(commitOf(path.join(git, 'missing')), null);
    } finally {
      fs.rmSync(git, { recursive: true, force: true });
    }
  });
});
