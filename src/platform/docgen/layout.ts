import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from '@cantoo/pdf-lib';
import { type Block, type PageSetup, type Paragraph, readDocument, type Span, type Table } from './layout-read.js';
import { openDocx } from './package.js';
import type { NotATemplate } from './types.js';
import type { ZipPackage } from './zip-package.js';

/** Pages laid out at most: what does not fit is cut. */
export const MAX_LAYOUT_PAGES = 500;
/** A table cell's padding (points). */
const PADDING = 4;

type FontKey = 'regular' | 'bold' | 'italic' | 'boldItalic';
type Fonts = Record<FontKey, PDFFont>;

/** What is drawn on a page: text at its baseline, or a line (a border, an underline). */
type Op =
  | { text: string; x: number; y: number; font: FontKey; size: number }
  | { line: [x1: number, y1: number, x2: number, y2: number] };

/** A word, a space or a line break of a paragraph, measured. */
interface Piece {
  text: string;
  font: FontKey;
  size: number;
  underline: boolean;
  width: number;
}

/** A line of a paragraph: its pieces, its width and height (points) and whether it ends the paragraph. */
interface Line {
  pieces: Piece[];
  width: number;
  height: number;
  size: number;
  last: boolean;
}

const fontOf = (span: Span): FontKey =>
  span.bold ? (span.italic ? 'boldItalic' : 'bold') : span.italic ? 'italic' : 'regular';

/** The pieces of a paragraph's spans: characters outside WinAnsi become `?` (Helvetica covers it only). */
function pieces(fonts: Fonts, spans: Span[], supported: Set<number>): Piece[] {
  const out: Piece[] = [];
  for (const span of spans) {
    const font = fontOf(span);
    const text = [...span.text].map((c) => (c === '\n' || supported.has(c.codePointAt(0) ?? 0) ? c : '?')).join('');
    for (const token of text.match(/\n| +|[^ \n]+/g) ?? []) {
      const width = token === '\n' ? 0 : fonts[font].widthOfTextAtSize(token, span.size);
      out.push({ text: token, font, size: span.size, underline: span.underline, width });
    }
  }
  return out;
}

/** The lines a paragraph's pieces take within `width`: words wrapped, a word wider than a line cut. */
function wrap(fonts: Fonts, all: Piece[], width: number, base: number, spacing: number): Line[] {
  const lines: Line[] = [];
  let line: Piece[] = [];
  let used = 0;
  const push = (last: boolean) => {
    while (line.length > 0 && line[line.length - 1]?.text.trim() === '') used -= line.pop()?.width ?? 0;
    const size = Math.max(base, ...line.map((p) => p.size));
    lines.push({ pieces: line, width: used, height: size * 1.2 * spacing, size, last });
    line = [];
    used = 0;
  };
  for (let piece of all) {
    if (piece.text === '\n') {
      push(true);
      continue;
    }
    if (piece.text.trim() === '' && line.length === 0 && lines.length > 0) continue;
    while (piece.width > width && piece.text.length > 1) {
      const font = fonts[piece.font];
      let cut = piece.text.length - 1;
      while (cut > 1 && font.widthOfTextAtSize(piece.text.slice(0, cut), piece.size) > width - used) cut--;
      if (used > 0 && font.widthOfTextAtSize(piece.text.slice(0, cut), piece.size) > width - used) {
        push(false);
        continue;
      }
      const head = piece.text.slice(0, cut);
      line.push({ ...piece, text: head, width: font.widthOfTextAtSize(head, piece.size) });
      used += line[line.length - 1]?.width ?? 0;
      push(false);
      const tail = piece.text.slice(cut);
      piece = { ...piece, text: tail, width: font.widthOfTextAtSize(tail, piece.size) };
    }
    if (used + piece.width > width && line.length > 0 && piece.text.trim() !== '') push(false);
    if (piece.text.trim() === '' && line.length === 0 && lines.length > 0) continue;
    line.push(piece);
    used += piece.width;
  }
  push(true);
  return lines;
}

/** Lays blocks out on pages, measuring with the fonts; the drawing is a list of operations per page. */
class Pager {
  readonly pages: Op[][] = [[]];
  private y: number;
  /** Set once `MAX_LAYOUT_PAGES` are full: the rest is cut. */
  full = false;
  private readonly supported: Set<number>;

  constructor(
    private readonly fonts: Fonts,
    private readonly page: PageSetup,
  ) {
    this.y = page.height - page.top;
    this.supported = new Set(fonts.regular.getCharacterSet());
  }

  private get ops(): Op[] {
    return this.pages[this.pages.length - 1] as Op[];
  }

  private get atTop(): boolean {
    return this.y >= this.page.height - this.page.top;
  }

  /** Starts a page; false when the last one allowed is full. */
  newPage(): boolean {
    if (this.pages.length >= MAX_LAYOUT_PAGES) {
      this.full = true;
      return false;
    }
    this.pages.push([]);
    this.y = this.page.height - this.page.top;
    return true;
  }

  private lines(p: Paragraph, width: number): Line[] {
    return wrap(this.fonts, pieces(this.fonts, p.spans, this.supported), width - p.indent, 11, p.lineSpacing);
  }

  /** Draws a line's pieces at `x` (left of the text area) and baseline `y`, aligned within `width`. */
  private drawLine(ops: Op[], line: Line, x: number, y: number, width: number, align: Paragraph['align']): void {
    const spare = Math.max(0, width - line.width);
    const gaps = line.pieces.filter((p) => p.text.trim() === '').length;
    const justify = align === 'both' && !line.last && gaps > 0;
    let at = x + (align === 'center' ? spare / 2 : align === 'right' ? spare : 0);
    let run: Piece | undefined;
    let runX = at;
    const flush = () => {
      if (run?.text.trim()) ops.push({ text: run.text, x: runX, y, font: run.font, size: run.size });
      if (run?.underline) ops.push({ line: [runX, y - 1.5, runX + run.width, y - 1.5] });
      run = undefined;
    };
    for (const piece of line.pieces) {
      const blank = piece.text.trim() === '';
      const width = piece.width + (justify && blank ? spare / gaps : 0);
      if (run && !justify && run.font === piece.font && run.size === piece.size && run.underline === piece.underline) {
        run = { ...run, text: run.text + piece.text, width: run.width + width };
      } else {
        flush();
        run = { ...piece, width };
        runX = at;
      }
      at += width;
    }
    flush();
  }

  paragraph(p: Paragraph): void {
    if (this.full) return;
    if (p.pageBreakBefore && !this.atTop && !this.newPage()) return;
    const width = this.page.width - this.page.left - this.page.right;
    if (!this.atTop) this.y -= p.before;
    for (const [i, line] of this.lines(p, width).entries()) {
      if (this.y - line.height < this.page.bottom && !this.atTop && !this.newPage()) return;
      const baseline = this.y - line.size;
      if (i === 0 && p.bullet) {
        this.ops.push({ text: '•', x: this.page.left + p.indent - 12, y: baseline, font: 'regular', size: line.size });
      }
      this.drawLine(this.ops, line, this.page.left + p.indent, baseline, width - p.indent, p.align);
      this.y -= line.height;
    }
    this.y -= p.after;
  }

  /** A table: its grid scaled to the text width when wider; a row that does not fit starts a new page. */
  table(t: Table): void {
    const width = this.page.width - this.page.left - this.page.right;
    const columns = Math.max(t.widths.length, ...t.rows.map((r) => r.reduce((n, c) => n + c.span, 0)));
    const grid = Array.from({ length: columns }, (_, i) => t.widths[i] || width / columns);
    const scale = Math.min(1, width / grid.reduce((a, b) => a + b, 0));
    for (const row of t.rows) {
      if (this.full) return;
      let column = 0;
      const cells = row.map((cell) => {
        const w = grid.slice(column, column + cell.span).reduce((a, b) => a + b, 0) * scale;
        column += cell.span;
        const blocks = cell.paragraphs.map((p) => ({ p, lines: this.lines(p, Math.max(10, w - 2 * PADDING)) }));
        const height = blocks.reduce((h, b) => h + b.lines.reduce((s, l) => s + l.height, 0) + b.p.after, 0);
        return { w, blocks, height: height + 2 * PADDING };
      });
      const height = Math.max(16, ...cells.map((c) => c.height));
      if (this.y - height < this.page.bottom && !this.atTop && !this.newPage()) return;
      const top = this.y;
      const bottom = Math.max(this.page.bottom, top - height);
      let x = this.page.left;
      for (const cell of cells) {
        const ops = this.ops;
        ops.push({ line: [x, top, x + cell.w, top] }, { line: [x, bottom, x + cell.w, bottom] });
        ops.push({ line: [x, top, x, bottom] }, { line: [x + cell.w, top, x + cell.w, bottom] });
        let y = top - PADDING;
        for (const { p, lines } of cell.blocks) {
          for (const line of lines) {
            if (y - line.height < bottom) break; // a row taller than a page is cut
            this.drawLine(ops, line, x + PADDING + p.indent, y - line.size, cell.w - 2 * PADDING - p.indent, p.align);
            y -= line.height;
          }
          y -= p.after;
        }
        x += cell.w;
      }
      this.y = bottom;
    }
    this.y -= 6;
  }

  blocks(blocks: Block[]): void {
    for (const block of blocks) {
      if (this.full) return;
      if (block.kind === 'break') this.newPage();
      else if (block.kind === 'table') this.table(block);
      else this.paragraph(block);
    }
  }
}

/** The measuring pass: the document read and laid out on pages of operations, in a PDF with the fonts embedded. */
async function measure(zip: ZipPackage): Promise<{ doc: PDFDocument; fonts: Fonts; pager: Pager; page: PageSetup }> {
  const read = readDocument(zip.file('word/document.xml')?.asText() ?? '', zip.file('word/styles.xml')?.asText());
  const doc = await PDFDocument.create();
  const fonts: Fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    italic: await doc.embedFont(StandardFonts.HelveticaOblique),
    boldItalic: await doc.embedFont(StandardFonts.HelveticaBoldOblique),
  };
  const pager = new Pager(fonts, read.page);
  pager.blocks(read.blocks);
  return { doc, fonts, pager, page: read.page };
}

/** The number of pages a package's document takes as laid out (the same pass as `layoutZip`, without drawing). */
export async function countZipPages(zip: ZipPackage): Promise<number> {
  return (await measure(zip)).pager.pages.length;
}

/** A package's document laid out as a PDF (see `layoutPdf`). */
export async function layoutZip(zip: ZipPackage): Promise<{ pdf: Uint8Array; pages: number }> {
  const { doc, fonts, pager, page } = await measure(zip);
  doc.setProducer('Atrium');
  for (const ops of pager.pages) {
    const pdfPage: PDFPage = doc.addPage([page.width, page.height]);
    for (const op of ops) {
      if ('line' in op) {
        const [x1, y1, x2, y2] = op.line;
        pdfPage.drawLine({ start: { x: x1, y: y1 }, end: { x: x2, y: y2 }, thickness: 0.5, color: rgb(0, 0, 0) });
      } else pdfPage.drawText(op.text, { x: op.x, y: op.y, size: op.size, font: fonts[op.font] });
    }
  }
  return { pdf: await doc.save(), pages: pager.pages.length };
}

/**
 * A (filled) DOCX laid out as a PDF in the standard Helvetica family (characters outside WinAnsi become `?`): the
 * page size and margins of its section, its paragraphs (bold, italic, underline, sizes, alignment, spacing, the
 * Title and Heading styles, bullets, tabs, page breaks) and tables (the grid's widths, wrapped text, borders, a row
 * that does not fit starts a page), at most `MAX_LAYOUT_PAGES` pages (the rest is cut). The text is real text, so
 * it can be read back and searched. Not a word processor: no headers, footers, images or floating content.
 */
export async function layoutPdf(
  docx: Uint8Array,
): Promise<{ ok: true; pdf: Uint8Array; pages: number } | NotATemplate> {
  const opened = openDocx(docx);
  if (!opened.ok) return opened;
  return { ok: true, ...(await layoutZip(opened.zip)) };
}

/** The number of pages `layoutPdf` would write, measured without drawing. */
export async function countPages(docx: Uint8Array): Promise<number | NotATemplate> {
  const opened = openDocx(docx);
  if (!opened.ok) return opened;
  return countZipPages(opened.zip);
}
