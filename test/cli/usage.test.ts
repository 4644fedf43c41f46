/**
 * The CLI's usage, help and failure lines, once (no database is opened, so neither dialect matters): help and
 * examples for every command, --version, one-line usage errors with exit code 2 that touch nothing, `atrium` alone,
 * and the one-line infrastructure failures (a port in use, an unreachable PostgreSQL, a data directory that is a
 * file) with their stack only under --debug / DEBUG. Needs `npm run build` first.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/program.js';
import { atriumProcess, CLI, atrium as inProcess, ROOT } from '../support/cli.js';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-usage-'));
/** A data directory no command below may create. */
const untouched = path.join(work, 'never-created');

/** `atrium …args` in this process (test/support/cli.ts), with no database, no DEBUG and a data directory never made. */
const atrium = (env: Record<string, string>, ...args: string[]) =>
  inProcess({ DATABASE_URL: '', DEBUG: '', ATRIUM_DATA_DIR: untouched, ...env }, ...args);
/** The same, as the built command's own process: for its exit code, its bin and its pipes. */
const atriumBin = (env: Record<string, string>, ...args: string[]) =>
  atriumProcess({ DATABASE_URL: '', DEBUG: '', ATRIUM_DATA_DIR: untouched, ...env }, ...args);

/** A port nobody listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function leaves(cmd: Command, prefix: string[] = []): { path: string[]; cmd: Command }[] {
  return cmd.commands.flatMap((sub) =>
    sub.commands.length > 0 ? leaves(sub, [...prefix, sub.name()]) : [{ path: [...prefix, sub.name()], cmd: sub }],
  );
}

function helpOf(cmd: Command): string {
  let text = '';
  cmd.configureOutput({
    writeOut: (s) => {
      text += s;
    },
  });
  cmd.outputHelp();
  return text;
}

describe('atrium usage and help', () => {
  after(() => fs.rmSync(work, { recursive: true, force: true }));

  it('every command has help with its options and examples, and is listed by its parent', () => {
    const program = buildProgram();
    const top = helpOf(program);
    const all = leaves(program);
    assert.deepEqual(
      all.map((l) => l.path.join(' ')),
      [
        'serve',
        'migrate',
        'doctor',
        'seed',
        'backup',
        'restore',
        'hr create-client',
        'hr create-application',
        'hr revoke-application',
        'hr outbox',
        'hr rotate-signing-key',
        'hr import',
        'hr sample-template',
        'hr pdf-text',
        'report',
        'replay',
        'trigger',
        'admin create-token',
        'admin revoke-token',
        'admin list-tokens',
        'admin audit-log',
        'tenants list',
        'jobs list',
        'jobs show',
        'jobs retry',
        'jobs cancel',
        'academy create',
        'academy rotate-key',
        'academy import',
        'proxy report',
        'help',
        'version',
      ],
    );
    for (const { path: words, cmd } of all) {
      const help = helpOf(cmd);
      assert.match(help, new RegExp(`^Usage: atrium ${words.join(' ')} `), `${words.join(' ')}: usage line`);
      assert.match(help, /\nExamples:\n {2}\$ atrium /, `${words.join(' ')}: examples`);
      for (const option of cmd.options) assert.ok(help.includes(option.flags), `${words.join(' ')}: ${option.flags}`);
      const parent = words.length === 1 ? top : helpOf(cmd.parent as Command);
      assert.ok(parent.includes(`${cmd.name()} ${cmd.usage()}`), `${words.join(' ')} is listed with its usage`);
    }
  });

  it('--help exits 0 on stdout; --version prints the package version; atrium alone prints help and exits 2', async () => {
    const help = await atrium({}, 'hr', 'create-application', '--help');
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: atrium hr create-application --client-id ID --name NAME/);
    assert.match(help.stdout, /--read-only/);
    assert.match(help.stdout, /Examples:\n {2}\$ atrium hr create-application --client-id/);

    // The built command's own process: its bin prints the version and exits 0.
    const version = await atriumBin({}, '--version');
    assert.equal(version.code, 0);
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    assert.equal(version.stdout, `${pkg.version}\n`);

    // atrium version, -v and -V are --version; atrium help [COMMAND...] is --help (on stdout, exit 0).
    for (const words of [['version'], ['-v'], ['-V']]) {
      const run = await atrium({}, ...words);
      assert.deepEqual([run.code, run.stdout, run.stderr], [0, `${pkg.version}\n`, ''], words.join(' '));
    }
    const top = await atrium({}, 'help');
    assert.equal(top.code, 0, top.stderr);
    assert.equal(top.stdout, helpOf(buildProgram()));
    assert.match(top.stdout, /^ {2}help \[COMMAND\.\.\.\] +show this help, or the help of a command$/m);
    assert.match(top.stdout, /^ {2}version .* +print the version/m);
    const nested = await atrium({}, 'help', 'hr', 'create-application');
    assert.equal(nested.code, 0, nested.stderr);
    assert.equal(nested.stdout, help.stdout, 'atrium help hr create-application is its --help');
    const unknown = await atrium({}, 'help', 'hr', 'nope');
    assert.deepEqual([unknown.code, unknown.stdout], [2, '']);
    assert.equal(unknown.stderr, "atrium: unknown command 'hr nope' (see atrium --help)\n");

    // Its process exits 2 when it printed the help for want of a command.
    const bare = await atriumBin({});
    assert.equal(bare.code, 2);
    assert.equal(bare.stdout, '');
    assert.match(bare.stderr, /^Usage: atrium <command> \[options\]/);
    assert.match(bare.stderr, /serve \[--port N\] \[--host H\] \[--workers N\]/);
    assert.match(bare.stderr, /backup --out DIR/);
    assert.ok(!fs.existsSync(untouched), 'no data directory was made');
  });

  it('a reader that closes the pipe early (atrium --help | head) ends the command quietly', async () => {
    const child = spawn(process.execPath, [CLI, 'hr', 'create-client', '--help'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '', DEBUG: '', ATRIUM_DATA_DIR: untouched },
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(stderr, '', 'no EPIPE stack');
    assert.equal(code, 0);
  });

  it('usage errors are one line on stderr, exit 2, and touch nothing', async () => {
    const cases: [string[], RegExp][] = [
      [['hr', 'create-application', '--json'], /required option '--client-id <ID>' not specified/],
      [['academy', 'import', '--acad-id', '1'], /required option '--file <PATH>' not specified/],
      [['hr', 'create-client', '--name', '  '], /'--name <NAME>' argument ' {2}' is invalid: must not be empty/],
      [['migrate', 'extra'], /too many arguments for 'migrate'/],
      [['migrate', '--nope'], /unknown option '--nope'/],
      [['serve', '--port', '70000'], /--port <N>' argument '70000' is invalid: must be a port number/],
      [['academy', 'rotate-key', '--acad-id', 'x'], /--acad-id <N>' argument 'x' is invalid: must be an academy id/],
      [['migrat'], /unknown command 'migrat' \(did you mean migrate\?\)/],
      [
        ['hr', 'import', '--client-id', 'c', '--type', 'robots', 'f.csv'],
        /'--type <TYPE>' argument 'robots' is invalid: must be one of employee, manager, organization/,
      ],
      [['hr', 'import', '--client-id', 'c', '--type', 'employee'], /missing required argument 'FILE'/],
      [
        ['admin', 'create-token', '--name', 'n'.repeat(256)],
        /'--name <NAME>' argument '.*' is invalid: must be at most 255 characters/,
      ],
      [['seed', '--size', 'huge'], /'--size <SIZE>' argument 'huge' is invalid: must be small or large/],
      [
        ['seed', '--employees', '1000001'],
        /'--employees <N>' argument '1000001' is invalid: must be a number of employees/,
      ],
      [['seed', '--employees', '-3'], /'--employees <N>' argument '-3' is invalid: must be a number of employees/],
      [['replay', 'rec'], /required option '--against <URL>' not specified/],
      [
        ['replay', 'rec', '--against', 'ftp://x'],
        /'--against <URL>' argument 'ftp:\/\/x' is invalid: must be http or https/,
      ],
      [
        ['replay', 'rec', '--against', 'http://x', '--ignore', 'body'],
        /'--ignore <POINTER>' argument 'body' is invalid: must be a JSON pointer/,
      ],
      [['hr'], /^Usage: atrium hr <command>/],
      [['proxy'], /required option '--target <URL>' not specified/],
      [
        ['proxy', '--target', 'ftp://x'],
        /'--target <URL>' argument 'ftp:\/\/x' is invalid: must be an http or https URL/,
      ],
      [['proxy', '--target', 'http://x', '--port', '70000'], /'--port <N>' argument '70000' is invalid/],
    ];
    const runs = await Promise.all(cases.map(([args]) => atrium({}, ...args)));
    runs.forEach((run, i) => {
      const [args, message] = cases[i] as [string[], RegExp];
      const what = args.join(' ');
      assert.equal(run.code, 2, `${what}: exit 2 (${run.stderr})`);
      assert.equal(run.stdout, '', `${what}: nothing on stdout`);
      assert.match(run.stderr, message, what);
      if (args[0] !== 'hr' || args.length > 1) {
        assert.equal(run.stderr.split('\n').length, 2, `${what}: one line: ${run.stderr}`);
        assert.match(run.stderr, /^atrium: .*\(see atrium .*--help\)\n$/, what);
      }
    });
    // The process prints the same line and exits with the same code.
    const real = await atriumBin({}, 'migrat');
    assert.deepEqual(real, runs[cases.findIndex(([args]) => args[0] === 'migrat')]);
    assert.ok(!fs.existsSync(untouched), 'no data directory was made');
  });
});

describe('atrium infrastructure failures', () => {
  it('a port in use is one line, for one process and for workers', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as net.AddressInfo;
    const dataDir = path.join(work, 'port');
    try {
      const [one, many] = await Promise.all([
        atriumBin({ ATRIUM_DATA_DIR: `${dataDir}-1` }, 'serve', '--port', String(port)),
        atriumBin({ ATRIUM_DATA_DIR: `${dataDir}-2`, PORT: String(port) }, 'serve', '--workers', '2'),
      ]);
      [one, many].forEach((run, k) => {
        assert.equal(run.code, 1, run.stderr);
        assert.equal(run.stdout, '');
        assert.equal(
          run.stderr,
          `using ${dataDir}-${k + 1}/atrium.sqlite\natrium: port ${port} is in use; set PORT or --port\n`,
        );
      });
    } finally {
      blocker.close();
    }
  });

  it('an unreachable DATABASE_URL names the host, never the password; --debug / DEBUG add the stack', async () => {
    const port = await closedPort();
    const url = `postgres://atrium:hunter2secret@127.0.0.1:${port}/atriumdb?password=hunter2secret`;
    const [plain, json, debug, env] = await Promise.all([
      atrium({ DATABASE_URL: url }, 'migrate'),
      atrium({ DATABASE_URL: url }, 'hr', 'create-client', '--name', 'x', '--json'),
      atrium({ DATABASE_URL: url }, 'migrate', '--debug'),
      atrium({ DATABASE_URL: url, DEBUG: '1' }, 'migrate'),
    ]);
    assert.equal(plain.code, 1);
    assert.equal(
      plain.stderr,
      `using PostgreSQL at atrium@127.0.0.1:${port}/atriumdb\natrium: cannot connect to PostgreSQL at 127.0.0.1:${port}/atriumdb: connection refused\n`,
    );
    assert.equal(json.code, 1);
    assert.equal(json.stdout, '');
    assert.equal(
      json.stderr,
      `atrium: cannot connect to PostgreSQL at 127.0.0.1:${port}/atriumdb: connection refused\n`,
    );
    for (const run of [debug, env]) {
      assert.equal(run.code, 1);
      assert.match(run.stderr, /connection refused\n.*ECONNREFUSED[\s\S]*\n {4}at /);
    }
    for (const run of [plain, json, debug, env])
      assert.ok(!`${run.stdout}${run.stderr}`.includes('hunter2'), 'no password');
  });

  it('a data directory that is a file says so; PostgreSQL backups print pg_dump guidance', async () => {
    const file = path.join(work, 'a-file');
    fs.writeFileSync(file, 'not a directory');
    const [run, backup] = await Promise.all([
      atrium({ ATRIUM_DATA_DIR: file }, 'hr', 'create-client', '--name', 'x'),
      atrium({ DATABASE_URL: 'postgres://atrium:hunter2secret@db.example/atrium' }, 'backup', '--out', file),
    ]);
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      new RegExp(`\\natrium: the data directory ${file} is a file, not a directory; set ATRIUM_DATA_DIR\\n$`),
    );
    assert.ok(!run.stderr.includes('    at '), 'no stack');
    assert.equal(backup.code, 1);
    assert.match(backup.stderr, /^using PostgreSQL at atrium@db\.example:5432\/atrium\n/);
    assert.match(backup.stderr, /pg_dump --format=custom --file=atrium\.dump "\$DATABASE_URL"/);
    assert.ok(!backup.stderr.includes('hunter2'), 'no password');
    assert.equal(fs.readFileSync(file, 'utf8'), 'not a directory');
  });
});
