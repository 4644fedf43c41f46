/**
 * The container recipe (issue 17, item 3), checked without a Docker engine (these machines have none):
 * - the Dockerfile's pack and install steps are the ones `npm run test:package` runs (it reads them from the
 *   Dockerfile by their `# package-test:` markers, so this checks they are there and say what they should);
 * - the image is multi-stage, runs as a non-root user, keeps its data in a volume, and checks /readyz;
 * - compose.yaml runs it on PostgreSQL, with the master key required from .env, written there once.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { dockerfile, markedStep, ROOT } from '../support/dockerfile.js';

describe('Dockerfile', () => {
  const instructions = dockerfile();
  const last = (keyword: string) => instructions.filter((i) => i.keyword === keyword).at(-1);
  const finalStage = instructions.slice(instructions.map((i) => i.keyword).lastIndexOf('FROM'));

  it('marks its pack and install steps, which the package test runs as written', () => {
    const pack = markedStep('pack', instructions);
    const install = markedStep('install', instructions);
    assert.match(pack, /^mkdir -p "\$PACK_DIR" && npm pack --pack-destination "\$PACK_DIR"$/);
    assert.match(install, /^npm install --global --prefix "\$ATRIUM_PREFIX" --omit=dev /);
    assert.match(install, /"\$PACK_DIR"\/atrium-\[0-9\]\*\.tgz$/, 'installs the packed tarball');
    // The variables the steps use are the stage's build arguments, with the paths the later stages copy.
    assert.ok(instructions.some((i) => i.keyword === 'ARG' && i.args === 'PACK_DIR=/pkg'));
    assert.ok(instructions.some((i) => i.keyword === 'ARG' && i.args === 'ATRIUM_PREFIX=/opt/atrium'));
    assert.ok(instructions.some((i) => i.keyword === 'COPY' && i.args === '--from=install /opt/atrium /opt/atrium'));
    // The package test reads them through the same parser: it imports markedStep and runs nothing else.
    const testSource = fs.readFileSync(path.join(ROOT, 'test/package/production-install.ts'), 'utf8');
    assert.match(testSource, /markedStep\('pack'\)/);
    assert.match(testSource, /markedStep\('install'\)/);
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    assert.match(pkg.scripts['test:package'], /test\/package\/production-install\.ts/);
    assert.match(fs.readFileSync(path.join(ROOT, '.ci/run'), 'utf8'), /^npm run test:package$/m);
  });

  it('is multi-stage; the final stage runs the installed package as a non-root user', () => {
    assert.ok(instructions.filter((i) => i.keyword === 'FROM').length >= 3, 'build, install and run stages');
    const user = finalStage.filter((i) => i.keyword === 'USER').at(-1);
    assert.ok(user, 'the final stage sets USER');
    assert.doesNotMatch(user.args, /^(root|0)(:|$)/);
    assert.deepEqual(last('CMD')?.args, '["atrium", "serve"]');
    // No compiler, no sources in the final stage: it copies only the installed prefix.
    assert.deepEqual(
      finalStage.filter((i) => i.keyword === 'COPY').map((i) => i.args),
      ['--from=install /opt/atrium /opt/atrium'],
    );
  });

  it('keeps its data in a volume, listens on all interfaces, checks /readyz', () => {
    const env = finalStage
      .filter((i) => i.keyword === 'ENV')
      .map((i) => i.args)
      .join(' ');
    assert.match(env, /\bATRIUM_DATA_DIR=\/data\b/);
    assert.match(env, /\bHOST=0\.0\.0\.0\b/);
    assert.equal(last('VOLUME')?.args, '/data');
    const health = last('HEALTHCHECK')?.args ?? '';
    assert.match(health, /\/readyz/);
    assert.match(health, /CMD \["node", "-e", /, 'the slim image has no curl: node fetches');
  });

  it('leaves the checkout’s build output and secrets out of the build context', () => {
    const ignored = fs.readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const entry of ['node_modules', 'dist', 'data', '.env', '.git']) assert.ok(ignored.includes(entry), entry);
  });
});

describe('compose.yaml', () => {
  const compose = fs.readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8');

  it('runs the image on PostgreSQL, once the database is healthy, with its data in volumes', () => {
    assert.match(compose, /^ {2}db:\n {4}image: postgres:\d+/m);
    assert.match(compose, /^ {2}atrium:\n {4}build:/m);
    assert.match(compose, /DATABASE_URL: postgres:\/\/atrium:\$\{POSTGRES_PASSWORD:-atrium\}@db:5432\/atrium/);
    assert.match(compose, /condition: service_healthy/);
    assert.match(compose, /pg_isready/);
    assert.match(compose, /- atrium-data:\/data/);
    assert.match(compose, /- pgdata:\/var\/lib\/postgresql\/data/);
  });

  it('requires ATRIUM_MASTER_KEY from .env (no default: a new key at each start would not open the database)', () => {
    const keys = compose.split('\n').filter((line) => /^\s+ATRIUM_MASTER_KEY:/.test(line));
    assert.deepEqual(keys, [
      `      ATRIUM_MASTER_KEY: \${ATRIUM_MASTER_KEY:?set it once in .env, see the top of compose.yaml}`,
    ]);
    assert.doesNotMatch(compose, /ATRIUM_MASTER_KEY:-/);
    assert.doesNotMatch(
      compose,
      /ATRIUM_MASTER_KEY=\$\(openssl[^\n]*docker compose/,
      'no key made on the compose line',
    );
  });

  it('its opening comment writes the key to .env once, and never over an existing one', () => {
    const header = compose.slice(0, compose.indexOf('\nservices:'));
    const once = header.match(/^# {3}(grep .*>> \.env)$/m)?.[1];
    assert.ok(once, 'the one-time command');
    assert.match(header, /^# {3}docker compose up --build /m);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-compose-env-'));
    try {
      const env = path.join(dir, '.env');
      const run = () => execFileSync('sh', ['-c', once], { cwd: dir });
      fs.writeFileSync(env, 'POSTGRES_PASSWORD=secret\n');
      run();
      const written = fs.readFileSync(env, 'utf8');
      assert.match(written, /^POSTGRES_PASSWORD=secret\nATRIUM_MASTER_KEY=[0-9a-f]{64}\n$/);
      run();
      assert.equal(fs.readFileSync(env, 'utf8'), written, 'a second run leaves the key as it was');
      fs.rmSync(env);
      run();
      assert.match(fs.readFileSync(env, 'utf8'), /^ATRIUM_MASTER_KEY=[0-9a-f]{64}\n$/, 'no .env yet: it is made');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
