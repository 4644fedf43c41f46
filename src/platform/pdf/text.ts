import { loadRenderer, openPdf } from './render.js';

/** Where a keyword appears on a page: PDF points, from the page's bottom-left corner. */
export interface TextOccurrence {
  keyword: string;
  page_number: number;
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Occurrences listed at most: a keyword of one letter in a long document stops there. */
export const MAX_OCCURRENCES = 1_000;

/**
 * Every place a keyword appears in a PDF's text (pdf.js's text content, page by page), case-insensitively, within
 * one text run (a keyword split across two runs is not found). A run's characters are taken as equally wide, so
 * `left` and `width` are those of the keyword's share of the run; `top` is the run's baseline plus its height.
 * Null when the PDF cannot be read; rejects only when pdf.js cannot be loaded.
 */
export async function findText(bytes: Uint8Array, keyword: string): Promise<TextOccurrence[] | null> {
  await loadRenderer(); // rejects when pdf.js cannot load: not the file's fault
  try {
    const doc = await openPdf(bytes);
    try {
      const found: TextOccurrence[] = [];
      const needle = keyword.toLocaleLowerCase('en');
      for (let n = 1; n <= doc.numPages && found.length < MAX_OCCURRENCES; n++) {
        const page = await doc.getPage(n);
        const content = await page.getTextContent();
        for (const item of content.items) {
          if (!('str' in item) || item.str.length === 0) continue;
          const text = item.str.toLocaleLowerCase('en');
          const [, , , , x = 0, y = 0] = item.transform as number[];
          const share = item.width / item.str.length;
          for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
            found.push({
              keyword,
              page_number: n,
              left: round(Math.max(0, x + share * at)),
              top: round(Math.max(0, y + item.height)),
              width: round(share * needle.length),
              height: round(item.height),
            });
            if (found.length >= MAX_OCCURRENCES) break;
          }
        }
        page.cleanup();
      }
      return found;
    } finally {
      await doc.destroy();
    }
  } catch {
    return null;
  }
}

const round = (n: number) => Math.round(n * 100) / 100;

/** Pages whose text is read at most: a longer PDF is refused (`null`) rather than read in part. */
export const MAX_TEXT_PAGES = 10_000;

/**
 * The text of each page of a PDF (pdf.js's text content: its runs joined by spaces, a line break where pdf.js
 * sees one), in page order; null when the PDF cannot be read or has more than `MAX_TEXT_PAGES` pages. Rejects
 * only when pdf.js cannot be loaded.
 */
export async function pageTexts(bytes: Uint8Array): Promise<string[] | null> {
  await loadRenderer();
  try {
    const doc = await openPdf(bytes);
    try {
      if (doc.numPages > MAX_TEXT_PAGES) return null;
      const texts: string[] = [];
      for (let n = 1; n <= doc.numPages; n++) {
        const page = await doc.getPage(n);
        const content = await page.getTextContent();
        let text = '';
        for (const item of content.items) {
          if (!('str' in item)) continue;
          text += item.str + (item.hasEOL ? '\n' : ' ');
        }
        texts.push(text);
        page.cleanup();
      }
      return texts;
    } finally {
      await doc.destroy();
    }
  } catch {
    return null;
  }
}
