import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from '@cantoo/pdf-lib';

/** A section of a composed document: a heading, then label–value rows, then paragraphs. */
export interface ComposedSection {
  heading: string;
  rows?: [label: string, value: string][];
  paragraphs?: string[];
}

/** A document of text (a request's PDF): a title, a subtitle, sections, and a line at the foot of each page. */
export interface ComposedDocument {
  title: string;
  subtitle?: string;
  sections: ComposedSection[];
  footer: string;
}

const PAGE = { width: 595.28, height: 841.89, margin: 56 };
const INK = rgb(0.1, 0.2, 0.55);
const GREY = rgb(0.35, 0.35, 0.35);
/** Pages written at most: what does not fit is cut, and the last page says so. */
export const MAX_COMPOSED_PAGES = 200;

/** Text the standard font can draw: other characters become `?` (Helvetica covers WinAnsi only). */
function drawable(font: PDFFont, text: string): string {
  const supported = new Set(font.getCharacterSet());
  return [...text.replace(/\r\n?/g, '\n')]
    .map((c) => (c === '\n' || supported.has(c.codePointAt(0) ?? 0) ? c : '?'))
    .join('');
}

/** The lines `text` takes at `size` within `width` (words wrapped; a word wider than the line is cut). */
function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of drawable(font, text).split('\n')) {
    let line = '';
    for (const word of paragraph.split(/ +/)) {
      let rest = word;
      while (font.widthOfTextAtSize(rest, size) > width) {
        let cut = rest.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut--;
        if (line) lines.push(line);
        lines.push(rest.slice(0, cut));
        line = '';
        rest = rest.slice(cut);
      }
      const next = line ? `${line} ${rest}` : rest;
      if (font.widthOfTextAtSize(next, size) > width) {
        lines.push(line);
        line = rest;
      } else line = next;
    }
    lines.push(line);
  }
  return lines;
}

/**
 * Writes a document of text as a PDF, A4, in the standard Helvetica (characters outside WinAnsi become `?`),
 * paginated, at most `MAX_COMPOSED_PAGES` pages. Runs in the PDF worker thread.
 */
export async function composeDocument(content: ComposedDocument): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(drawable(await doc.embedFont(StandardFonts.Helvetica), content.title));
  doc.setProducer('Atrium');
  const fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
  };
  const width = PAGE.width - 2 * PAGE.margin;
  let page: PDFPage = doc.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - PAGE.margin;
  let full = false;
  const newPage = () => {
    if (doc.getPageCount() >= MAX_COMPOSED_PAGES) {
      full = true;
      return false;
    }
    page = doc.addPage([PAGE.width, PAGE.height]);
    y = PAGE.height - PAGE.margin;
    return true;
  };
  const write = (
    text: string,
    font: PDFFont,
    size: number,
    options: { color?: ReturnType<typeof rgb>; indent?: number } = {},
  ) => {
    const indent = options.indent ?? 0;
    for (const line of wrap(font, text, size, width - indent)) {
      if (full) return;
      if (y - size < PAGE.margin && !newPage()) return;
      page.drawText(line, { x: PAGE.margin + indent, y: y - size, size, font, color: options.color ?? rgb(0, 0, 0) });
      y -= size + 4;
    }
  };
  write(content.title, fonts.bold, 18, { color: INK });
  if (content.subtitle) write(content.subtitle, fonts.regular, 10, { color: GREY });
  for (const section of content.sections) {
    y -= 10;
    write(section.heading, fonts.bold, 13, { color: INK });
    for (const [label, value] of section.rows ?? []) {
      write(label, fonts.bold, 9, { color: GREY });
      write(value || '—', fonts.regular, 10, { indent: 12 });
    }
    for (const paragraph of section.paragraphs ?? []) {
      y -= 2;
      write(paragraph, fonts.regular, 10);
    }
  }
  const pages = doc.getPages();
  pages.forEach((p, i) => {
    const note = full && i === pages.length - 1 ? ' (cut: the rest does not fit)' : '';
    p.drawText(drawable(fonts.regular, `${content.footer} - page ${i + 1} of ${pages.length}${note}`), {
      x: PAGE.margin,
      y: 24,
      size: 7,
      font: fonts.regular,
      color: GREY,
    });
  });
  return doc.save();
}
