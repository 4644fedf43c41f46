import { ZipPackage } from './zip-package.js';

/** A file of a zip archive: its name in the archive (a path with `/`) and its bytes. */
export interface ZipEntry {
  name: string;
  bytes: Uint8Array;
}

/**
 * One zip archive of the files, in their order (a campaign's result: its generated documents), written with
 * DEFLATE (zip-package.ts). Names are kept as given but for what a zip must not hold: a leading `/`, `..` segments, `\` and
 * control characters; a name given twice gets ` (2)`, ` (3)`… before its extension. Runs in the docgen worker
 * (worker.ts): a zip of a thousand documents is seconds of work, never on the server's event loop.
 */
export function zipFiles(entries: readonly ZipEntry[]): Uint8Array {
  const zip = new ZipPackage();
  const taken = new Set<string>();
  for (const entry of entries) {
    const name = uniqueName(safeName(entry.name), taken);
    taken.add(name);
    zip.file(name, entry.bytes);
  }
  return zip.generate({ compression: 'DEFLATE' });
}

function safeName(name: string): string {
  const clean = name
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed.
    .replace(/[\u0000-\u001f\u007f\\]/g, '_')
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.' && segment !== '..')
    .join('/');
  return clean === '' ? 'file' : clean;
}

function uniqueName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 2; ; n++) {
    const candidate = `${stem} (${n})${ext}`;
    if (!taken.has(candidate)) return candidate;
  }
}
