import { ParseSpeeds, PDFArray, PDFDict, PDFDocument, PDFName } from '@cantoo/pdf-lib';

/**
 * The page count of a PDF, read with the PDF library (`@cantoo/pdf-lib`; this folder is the one place that imports
 * it), or null when the bytes are not a PDF the library can read.
 *
 * The document is parsed without decrypting (`ignoreEncryption`: an encrypted PDF's page tree is not encrypted,
 * only its strings and streams), without touching its metadata (`updateMetadata: false`) and in one go
 * (`ParseSpeeds.Fastest`: it runs in a worker thread, see runner.ts, so it need not yield). The pages are then
 * counted by walking the page tree here rather than with `getPageCount()`, whose recursive walk follows a
 * reference each time it appears: a tree whose nodes refer to the same kids twice at every level would be walked
 * 2^depth times, and a cycle would recurse until the stack overflows. This walk visits each node once, without
 * recursion, and calls a tree that reaches a node twice (a cycle, or a node shared by two parents) unreadable.
 * A leaf is a dictionary without `Kids` whose `Type` is `Page` (or absent, as some writers leave it).
 *
 * Never rejects.
 */
export async function countPdfPages(bytes: Uint8Array): Promise<number | null> {
  try {
    const doc = await PDFDocument.load(bytes, {
      ignoreEncryption: true,
      updateMetadata: false,
      throwOnInvalidObject: false,
      parseSpeed: ParseSpeeds.Fastest,
    });
    return countLeaves(doc);
  } catch {
    return null;
  }
}

const KIDS = PDFName.of('Kids');
const TYPE = PDFName.of('Type');
const PAGE = PDFName.of('Page');

function countLeaves(doc: PDFDocument): number | null {
  const root = doc.context.lookup(doc.context.trailerInfo.Root);
  if (!(root instanceof PDFDict)) return null;
  const pagesRoot = root.lookup(PDFName.of('Pages'));
  if (!(pagesRoot instanceof PDFDict)) return null;
  const seen = new Set<PDFDict>();
  const stack: PDFDict[] = [pagesRoot];
  let pages = 0;
  while (stack.length > 0) {
    const node = stack.pop() as PDFDict;
    if (seen.has(node)) return null;
    seen.add(node);
    const kids = node.lookup(KIDS);
    if (kids === undefined) {
      const type = node.lookup(TYPE);
      if (type !== undefined && type !== PAGE) return null;
      pages++;
      continue;
    }
    if (!(kids instanceof PDFArray)) return null;
    for (let i = 0; i < kids.size(); i++) {
      const kid = kids.lookup(i);
      if (!(kid instanceof PDFDict)) return null;
      stack.push(kid);
    }
  }
  return pages;
}

/**
 * New PDFs made of pages of one PDF: one per group, each group a list of 0-based page indexes (in the order
 * given). Written without metadata dates (`updateMetadata: false`), so the same pages give the same bytes each
 * time. Null when the PDF cannot be read or a page index is outside it. Never rejects.
 */
export async function splitPdf(
  bytes: Uint8Array,
  groups: readonly (readonly number[])[],
): Promise<Uint8Array[] | null> {
  try {
    const source = await PDFDocument.load(bytes, {
      ignoreEncryption: true,
      updateMetadata: false,
      throwOnInvalidObject: false,
      parseSpeed: ParseSpeeds.Fastest,
    });
    // The safe walk first: the library's own page walk then meets no cycle and no shared node.
    const count = countLeaves(source);
    if (count === null) return null;
    const out: Uint8Array[] = [];
    for (const group of groups) {
      if (group.length === 0 || group.some((i) => !Number.isSafeInteger(i) || i < 0 || i >= count)) return null;
      const doc = await PDFDocument.create({ updateMetadata: false });
      for (const page of await doc.copyPages(source, [...group])) doc.addPage(page);
      out.push(await doc.save({ useObjectStreams: true }));
    }
    return out;
  } catch {
    return null;
  }
}

/**
 * One PDF of the pages of several, in their order (a campaign's result: its generated documents one after the
 * other), with its page count; written without metadata dates (`updateMetadata: false`). Each part is walked safely
 * first (`countLeaves`). Null when a part cannot be read, or there is none. Never rejects.
 */
export async function concatPdfs(parts: readonly Uint8Array[]): Promise<{ pdf: Uint8Array; pages: number } | null> {
  if (parts.length === 0) return null;
  try {
    const doc = await PDFDocument.create({ updateMetadata: false });
    for (const bytes of parts) {
      const source = await PDFDocument.load(bytes, {
        ignoreEncryption: true,
        updateMetadata: false,
        throwOnInvalidObject: false,
        parseSpeed: ParseSpeeds.Fastest,
      });
      const count = countLeaves(source);
      if (count === null) return null;
      const pages = await doc.copyPages(
        source,
        Array.from({ length: count }, (_, i) => i),
      );
      for (const page of pages) doc.addPage(page);
    }
    return { pdf: await doc.save({ useObjectStreams: true }), pages: doc.getPageCount() };
  } catch {
    return null;
  }
}
