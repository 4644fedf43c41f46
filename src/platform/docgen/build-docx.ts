import { ZipPackage } from './zip-package.js';

/** A run of text with its character formatting (`size` in points). */
export interface DocxRun {
  text: string;
  bold?: boolean;
  italic?: boolean;
  size?: number;
}

/** A paragraph: its text (one run) or its runs, a style id (`Title`, `Heading1`, …), an alignment, a bullet. */
export interface DocxParagraph {
  paragraph: string | DocxRun[];
  style?: string;
  align?: 'left' | 'center' | 'right' | 'both';
  pageBreakBefore?: boolean;
  /** A list item (`w:numPr`, numbering 1). */
  bullet?: boolean;
  /** Offsets at which each run's text is cut into several runs (placeholders split across runs). */
  splitAt?: number[];
}

/** A table: rows of cell texts, the column widths in twips (even by default). */
export interface DocxTable {
  table: string[][];
  widths?: number[];
}

/** The blocks of a built document's body, in order. */
export type DocxBlock = DocxParagraph | DocxTable | { pageBreak: true };

export interface BuildOptions {
  /** Offsets at which every text of the document is cut into runs (a paragraph's own `splitAt` comes first). */
  splitAt?: number[];
  /** Page size and margins in twips (A4, 2.5 cm margins by default). */
  page?: { width: number; height: number; margin: number };
}

const NS =
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" ' +
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** `text` cut at `offsets` (out of range or repeated offsets are ignored). */
function cut(text: string, offsets: number[]): string[] {
  const at = [...new Set(offsets.filter((o) => o > 0 && o < text.length))].sort((a, b) => a - b);
  const parts: string[] = [];
  let from = 0;
  for (const o of at) {
    parts.push(text.slice(from, o));
    from = o;
  }
  parts.push(text.slice(from));
  return parts;
}

function runXml(run: DocxRun, offsets: number[]): string {
  const props = [
    run.bold ? '<w:b/>' : '',
    run.italic ? '<w:i/>' : '',
    run.size ? `<w:sz w:val="${Math.round(run.size * 2)}"/>` : '',
  ].join('');
  const rPr = props ? `<w:rPr>${props}</w:rPr>` : '';
  return cut(run.text, offsets)
    .map((part) => `<w:r>${rPr}<w:t xml:space="preserve">${escapeXml(part)}</w:t></w:r>`)
    .join('');
}

function paragraphXml(p: DocxParagraph, options: BuildOptions): string {
  const runs = typeof p.paragraph === 'string' ? [{ text: p.paragraph }] : p.paragraph;
  const props = [
    p.style ? `<w:pStyle w:val="${p.style}"/>` : '',
    p.pageBreakBefore ? '<w:pageBreakBefore/>' : '',
    p.bullet ? '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>' : '',
    p.align ? `<w:jc w:val="${p.align}"/>` : '',
  ].join('');
  const offsets = p.splitAt ?? options.splitAt ?? [];
  return `<w:p>${props ? `<w:pPr>${props}</w:pPr>` : ''}${runs.map((r) => runXml(r, offsets)).join('')}</w:p>`;
}

function tableXml(t: DocxTable, contentWidth: number, options: BuildOptions): string {
  const columns = Math.max(1, ...t.table.map((row) => row.length));
  const widths = t.widths ?? Array.from({ length: columns }, () => Math.floor(contentWidth / columns));
  const border = ['top', 'left', 'bottom', 'right', 'insideH', 'insideV']
    .map((side) => `<w:${side} w:val="single" w:sz="4" w:space="0" w:color="000000"/>`)
    .join('');
  const grid = widths.map((w) => `<w:gridCol w:w="${w}"/>`).join('');
  const rows = t.table
    .map((row) => {
      const cells = row.map(
        (text, i) =>
          `<w:tc><w:tcPr><w:tcW w:w="${widths[i] ?? widths[0]}" w:type="dxa"/></w:tcPr>${paragraphXml({ paragraph: text }, options)}</w:tc>`,
      );
      return `<w:tr>${cells.join('')}</w:tr>`;
    })
    .join('');
  return `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/><w:tblBorders>${border}</w:tblBorders></w:tblPr><w:tblGrid>${grid}</w:tblGrid>${rows}</w:tbl>`;
}

const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles ${NS}><w:docDefaults><w:rPrDefault><w:rPr><w:sz w:val="22"/></w:rPr></w:rPrDefault></w:docDefaults>
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/><w:rPr><w:b/><w:sz w:val="52"/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/><w:sz w:val="36"/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="1"/></w:pPr><w:rPr><w:b/><w:sz w:val="30"/></w:rPr></w:style>
</w:styles>`;

const NUMBERING = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:numbering ${NS}><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="•"/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`;

/**
 * A minimal valid DOCX (content types, relationships, document.xml, styles.xml with Title, Heading1 and Heading2,
 * numbering.xml when a paragraph is a bullet) from a list of blocks: what the tests, the seed data and the bench
 * write their templates with, without a word processor.
 */
export function buildDocx(blocks: DocxBlock[], options: BuildOptions = {}): Uint8Array {
  const page = options.page ?? { width: 11906, height: 16838, margin: 1418 };
  const body = blocks
    .map((block) => {
      if ('pageBreak' in block) return '<w:p><w:r><w:br w:type="page"/></w:r></w:p>';
      if ('table' in block) return tableXml(block, page.width - 2 * page.margin, options);
      return paragraphXml(block, options);
    })
    .join('');
  const sectPr = `<w:sectPr><w:pgSz w:w="${page.width}" w:h="${page.height}"/><w:pgMar w:top="${page.margin}" w:right="${page.margin}" w:bottom="${page.margin}" w:left="${page.margin}" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr>`;
  const bullets = blocks.some((b) => 'paragraph' in b && b.bullet);
  const zip = new ZipPackage();
  zip.file(
    '[Content_Types].xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>${bullets ? '<Override PartName="/word/numbering.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"/>' : ''}</Types>`,
  );
  zip.file(
    '_rels/.rels',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
  );
  zip.file(
    'word/_rels/document.xml.rels',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>${bullets ? '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/>' : ''}</Relationships>`,
  );
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document ${NS}><w:body>${body}${sectPr}</w:body></w:document>`,
  );
  zip.file('word/styles.xml', STYLES);
  if (bullets) zip.file('word/numbering.xml', NUMBERING);
  return zip.generate({ type: 'uint8array', compression: 'DEFLATE' });
}
