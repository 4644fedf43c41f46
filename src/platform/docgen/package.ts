import { inflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
import type { NotATemplate } from './types.js';
import { ZipPackage } from './zip-package.js';

/** Entries a DOCX may hold at most. */
export const MAX_ENTRIES = 2_000;
/** Bytes a DOCX may unpack to at most, per entry and in all (declared and actual). */
export const MAX_UNPACKED_BYTES = 50 * 1024 * 1024;

/** A DOCX opened: its package (for docxtemplater, and for writing it back). */
export interface OpenedDocx {
  ok: true;
  zip: ZipPackage;
}

/** An entry as the zip's central directory declares it. */
interface Entry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const notTemplate = (reason: NotATemplate['reason'], message: string): NotATemplate => ({ ok: false, reason, message });

/** The central directory's entries, or why the bytes are not a zip (nothing is inflated here). */
function centralDirectory(bytes: Uint8Array): Entry[] | NotATemplate {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end-of-central-directory record: at the end, after a comment of at most 64 KiB.
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) return notTemplate('not_docx', 'the file is not a DOCX (not a zip archive)');
  const count = view.getUint16(end + 10, true);
  if (count > MAX_ENTRIES) return notTemplate('too_large', `the DOCX has more than ${MAX_ENTRIES} entries`);
  const entries: Entry[] = [];
  let at = view.getUint32(end + 16, true);
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) {
      return notTemplate('not_docx', 'the file is not a DOCX (its zip directory is damaged)');
    }
    const nameLength = view.getUint16(at + 28, true);
    const entry: Entry = {
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localOffset: view.getUint32(at + 42, true),
      name: Buffer.from(bytes.subarray(at + 46, at + 46 + nameLength)).toString('utf8'),
    };
    entries.push(entry);
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return entries;
}

/**
 * Inflates every entry within what is left of the budget, so that a size that lies costs no more than the limit;
 * answers the entries' bytes.
 */
function inflateEntries(bytes: Uint8Array, entries: Entry[]): [string, Uint8Array][] | NotATemplate {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let budget = MAX_UNPACKED_BYTES;
  const out: [string, Uint8Array][] = [];
  for (const entry of entries) {
    if (entry.name.endsWith('/')) continue;
    const local = entry.localOffset;
    if (local + 30 > bytes.length || view.getUint32(local, true) !== 0x04034b50) {
      return notTemplate('not_docx', 'the file is not a DOCX (its zip entries are damaged)');
    }
    const from = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = bytes.subarray(from, from + entry.compressedSize);
    let inflated: Uint8Array;
    if (entry.method === 0) inflated = data;
    else if (entry.method === 8) {
      try {
        inflated = inflateRawSync(data, { maxOutputLength: budget + 1 });
      } catch (err) {
        if (err instanceof RangeError || (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
          return notTemplate('too_large', `the DOCX unpacks to more than ${MAX_UNPACKED_BYTES} bytes`);
        }
        return notTemplate('broken', `the DOCX entry ${entry.name} cannot be unpacked`);
      }
    } else return notTemplate('broken', `the DOCX entry ${entry.name} uses an unsupported compression`);
    budget -= inflated.length;
    if (budget < 0) return notTemplate('too_large', `the DOCX unpacks to more than ${MAX_UNPACKED_BYTES} bytes`);
    out.push([entry.name, inflated]);
  }
  return out;
}

/** The XML parts a template is read from: the body, headers and footers, and the styles. */
export const isTemplatedPart = (name: string) => /^word\/(document|header\d*|footer\d*)\.xml$/.test(name);

/** Whether `xml` parses (xmldom, errors fatal). */
export function parsesAsXml(xml: string): boolean {
  let failed = false;
  try {
    const doc = new DOMParser({
      onError: (level) => {
        if (level !== 'warning') failed = true;
      },
    }).parseFromString(xml, 'text/xml');
    return !failed && doc.documentElement !== null;
  } catch {
    return false;
  }
}

/**
 * Opens a DOCX, safely: the zip's directory is read first (at most `MAX_ENTRIES` entries, each and all
 * declared at most `MAX_UNPACKED_BYTES`), then every entry is inflated within the same budget (declared sizes can
 * lie), then `word/document.xml` must be there and its XML parts must parse. Never throws: what is not a template
 * is `not_docx` (not a zip), `too_large` (past the limits: a zip bomb) or `broken` (a part that does not parse).
 */
export function openDocx(bytes: Uint8Array): OpenedDocx | NotATemplate {
  try {
    const entries = centralDirectory(bytes);
    if (!Array.isArray(entries)) return entries;
    let declared = 0;
    for (const entry of entries) {
      declared += entry.size;
      if (entry.size > MAX_UNPACKED_BYTES || declared > MAX_UNPACKED_BYTES) {
        return notTemplate('too_large', `the DOCX declares more than ${MAX_UNPACKED_BYTES} bytes unpacked`);
      }
    }
    if (!entries.some((e) => e.name === 'word/document.xml')) {
      return notTemplate('not_docx', 'the file is not a DOCX (no word/document.xml)');
    }
    const inflated = inflateEntries(bytes, entries);
    if (!Array.isArray(inflated)) return inflated;
    const zip = new ZipPackage(inflated);
    for (const name of Object.keys(zip.files)) {
      if (!isTemplatedPart(name) && name !== 'word/styles.xml') continue;
      if (!parsesAsXml(zip.file(name)?.asText() ?? '')) return notTemplate('broken', `${name} is not well-formed XML`);
    }
    return { ok: true, zip };
  } catch (err) {
    return notTemplate('broken', `the DOCX cannot be read (${err instanceof Error ? err.message : String(err)})`);
  }
}
