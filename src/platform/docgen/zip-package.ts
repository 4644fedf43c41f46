import { zipSync } from 'fflate';

/**
 * A zip package held in memory (a DOCX), with the part of PizZip's interface that docxtemplater uses (`files`,
 * `file`, `remove`) and a `generate` that writes it back. Reading is package.ts's (`openDocx`, which checks the
 * sizes before anything is inflated); writing is fflate's (MIT). Atrium does not use PizZip itself: it depends on
 * pako, whose licence (MIT AND Zlib) is outside the project's list.
 */

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** One entry of the package: its bytes, read as text (UTF-8) or bytes. */
export class ZipEntry {
  readonly dir: boolean;
  private text: string | undefined;

  constructor(
    readonly name: string,
    private bytes: Uint8Array,
  ) {
    this.dir = name.endsWith('/');
  }

  asText(): string {
    this.text ??= decoder.decode(this.bytes);
    return this.text;
  }

  asUint8Array(): Uint8Array {
    return this.bytes;
  }
}

export interface GenerateOptions {
  /** Always bytes (PizZip's `uint8array`); accepted for its callers' sake. */
  type?: 'uint8array';
  /** `STORE` writes the entries as they are (default `DEFLATE`). */
  compression?: 'DEFLATE' | 'STORE';
}

export class ZipPackage {
  /** The entries by name, in the order they were added. */
  files: Record<string, ZipEntry> = {};

  constructor(entries: Iterable<[name: string, bytes: Uint8Array]> = []) {
    for (const [name, bytes] of entries) this.files[name] = new ZipEntry(name, bytes);
  }

  /**
   * The entry `name`, or null; the entries (not folders) whose name matches a pattern; with `data`, sets the entry
   * (text is written in UTF-8) and answers the package.
   */
  file(name: string): ZipEntry | null;
  file(pattern: RegExp): ZipEntry[];
  file(name: string, data: string | Uint8Array, options?: unknown): this;
  file(name: string | RegExp, data?: string | Uint8Array): ZipEntry | ZipEntry[] | null | this {
    if (name instanceof RegExp) return Object.values(this.files).filter((e) => !e.dir && name.test(e.name));
    if (data === undefined) return Object.hasOwn(this.files, name) ? (this.files[name] ?? null) : null;
    this.files[name] = new ZipEntry(name, typeof data === 'string' ? encoder.encode(data) : data);
    return this;
  }

  remove(name: string): this {
    delete this.files[name];
    return this;
  }

  /** The package as zip bytes (folder entries left out: a DOCX has none). */
  generate(options: GenerateOptions = {}): Uint8Array {
    const level = options.compression === 'STORE' ? 0 : 6;
    const entries: Record<string, [Uint8Array, { level: 0 | 6 }]> = {};
    for (const entry of Object.values(this.files)) {
      if (!entry.dir) entries[entry.name] = [entry.asUint8Array(), { level }];
    }
    return zipSync(entries, { mtime: new Date('2000-01-01T00:00:00Z') });
  }
}
