import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, readdirSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The formats the office converter writes, and LibreOffice's filter for each. */
export type ConvertFormat = 'ODT' | 'DOC' | 'PDF';
const FILTERS: Record<ConvertFormat, { filter: string; extension: string }> = {
  ODT: { filter: 'odt', extension: 'odt' },
  DOC: { filter: 'doc:MS Word 97', extension: 'doc' },
  PDF: { filter: 'pdf', extension: 'pdf' },
};

/** Conversions running at most at once: each is a LibreOffice process of a few hundred MiB. */
export const MAX_CONVERSIONS = 2;

export type ConvertOutcome =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; reason: 'timeout' | 'failed'; message: string };

const executable = (file: string) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The places LibreOffice is looked for, after the `PATH`. */
function candidates(): string[] {
  const found = ['/usr/bin/soffice', '/usr/lib/libreoffice/program/soffice'];
  try {
    for (const name of readdirSync('/opt')) {
      if (name.startsWith('libreoffice')) found.push(path.join('/opt', name, 'program', 'soffice'));
    }
  } catch {
    // no /opt
  }
  found.push('/Applications/LibreOffice.app/Contents/MacOS/soffice');
  return found;
}

/**
 * The office converter's executable: the configured path when given (and executable; `off` disables conversion),
 * else `soffice` or `libreoffice` on the `PATH`, else LibreOffice's usual places. Undefined when there is none.
 */
export function findOffice(configured?: string): string | undefined {
  if (configured === 'off') return undefined;
  if (configured) return executable(configured) ? configured : undefined;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    for (const name of ['soffice', 'libreoffice']) {
      if (executable(path.join(dir, name))) return path.join(dir, name);
    }
  }
  return candidates().find(executable);
}

/** A small semaphore: at most `MAX_CONVERSIONS` conversions at once, the others wait their turn. */
let running = 0;
const waiting: (() => void)[] = [];
async function acquire(): Promise<() => void> {
  if (running >= MAX_CONVERSIONS) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  return () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
}

/** Kills a detached process's whole group (LibreOffice starts a child process of its own). */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/** Runs LibreOffice once: its exit code, or `timeout` after `timeoutMs` (its process group killed). */
function run(
  office: string,
  args: string[],
  timeoutMs: number,
): Promise<{ code: number | null; output: string } | 'timeout'> {
  return new Promise((resolve) => {
    const child = spawn(office, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      if (output.length < 4_000) output += chunk.toString('utf8');
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const timer = setTimeout(() => {
      killGroup(child);
      resolve('timeout');
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ code: null, output: err.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/**
 * A document converted by LibreOffice (`office`, see `findOffice`) to ODT, DOC (MS Word 97) or PDF: in a fresh
 * temporary directory, with its own user profile (two conversions never share one, nor the user's), headless,
 * spawned detached so that a timeout kills its whole process group. At most `MAX_CONVERSIONS` run at once; the
 * temporary directory is always removed. Never rejects.
 */
export async function convertDocument(
  office: string,
  bytes: Uint8Array,
  to: ConvertFormat,
  { timeoutMs = 60_000 }: { timeoutMs?: number } = {},
): Promise<ConvertOutcome> {
  const release = await acquire();
  let dir: string | undefined;
  try {
    dir = await mkdtemp(path.join(tmpdir(), 'atrium-convert-'));
    const input = path.join(dir, 'document.docx');
    const out = path.join(dir, 'out');
    await writeFile(input, bytes);
    const { filter, extension } = FILTERS[to];
    const args = [
      `-env:UserInstallation=${pathToFileURL(path.join(dir, 'profile')).href}`,
      '--headless',
      '--norestore',
      '--nolockcheck',
      '--convert-to',
      filter,
      '--outdir',
      out,
      input,
    ];
    const result = await run(office, args, timeoutMs);
    if (result === 'timeout')
      return { ok: false, reason: 'timeout', message: `the conversion took more than ${timeoutMs} ms` };
    const written = (await readdir(out).catch(() => [])).find((name) => name.endsWith(`.${extension}`));
    if (result.code !== 0 || !written) {
      const message = `LibreOffice exited with ${result.code}: ${result.output.trim().slice(0, 500)}`;
      return { ok: false, reason: 'failed', message };
    }
    return { ok: true, bytes: new Uint8Array(await readFile(path.join(out, written))) };
  } catch (err) {
    return { ok: false, reason: 'failed', message: err instanceof Error ? err.message : String(err) };
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true }).catch(() => {});
    release();
  }
}
