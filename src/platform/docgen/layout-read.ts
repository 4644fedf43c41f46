import { DOMParser, type Element } from '@xmldom/xmldom';

/** A run of text with its formatting (size in points). `\n` is a line break. */
export interface Span {
  text: string;
  bold: boolean;
  italic: boolean;
  underline: boolean;
  size: number;
}

/** A paragraph as laid out: spacing and indent in points, `lineSpacing` a multiple of single. */
export interface Paragraph {
  kind: 'paragraph';
  spans: Span[];
  align: 'left' | 'center' | 'right' | 'both';
  before: number;
  after: number;
  indent: number;
  lineSpacing: number;
  bullet: boolean;
  pageBreakBefore: boolean;
}

/** A table: its grid's column widths (points) and its rows of cells, each spanning `span` grid columns. */
export interface Table {
  kind: 'table';
  widths: number[];
  rows: { span: number; paragraphs: Paragraph[] }[][];
}

export type Block = Paragraph | Table | { kind: 'break' };

/** The page: its size and margins in points. */
export interface PageSetup {
  width: number;
  height: number;
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** A document read for layout: its page setup and its body's blocks. */
export interface ReadDocument {
  page: PageSetup;
  blocks: Block[];
}

/** A paragraph style's formatting, as far as the layout uses it. */
interface StyleFormat {
  bold?: boolean;
  italic?: boolean;
  size?: number;
  align?: Paragraph['align'];
}

/** The styles the layout knows without styles.xml: larger, bold. */
const BUILT_IN: Record<string, StyleFormat> = {
  Title: { bold: true, size: 26 },
  Heading1: { bold: true, size: 16 },
  Heading2: { bold: true, size: 13 },
  Heading3: { bold: true, size: 12 },
};
const DEFAULT_SIZE = 11;
/** A4 with 2.5 cm margins, in points. */
const A4: PageSetup = { width: 595.28, height: 841.89, top: 70.87, right: 70.87, bottom: 70.87, left: 70.87 };

const elements = (el: Element | null | undefined): Element[] =>
  el ? (Array.from(el.childNodes).filter((n) => n.nodeType === n.ELEMENT_NODE) as Element[]) : [];
const child = (el: Element | null | undefined, name: string) => elements(el).find((c) => c.nodeName === name);
const val = (el: Element | undefined, name = 'w:val') => el?.getAttribute(name) ?? undefined;
const twips = (value: string | undefined, fallback: number) => {
  const n = Number(value);
  return value !== undefined && Number.isFinite(n) ? n / 20 : fallback;
};
/** An on/off property (`<w:b/>`, `<w:b w:val="0"/>`): undefined when absent. */
const onOff = (el: Element | undefined) => (el ? !['0', 'false', 'off'].includes(val(el) ?? '') : undefined);
const ALIGN: Record<string, Paragraph['align']> = {
  left: 'left',
  start: 'left',
  center: 'center',
  right: 'right',
  end: 'right',
  both: 'both',
  distribute: 'both',
};

/** The paragraph styles of styles.xml (their `basedOn` followed), over the built-in ones, and the default size. */
function readStyles(xml: string | undefined): { styles: Map<string, StyleFormat>; size: number } {
  const styles = new Map(Object.entries(BUILT_IN));
  if (!xml) return { styles, size: DEFAULT_SIZE };
  const doc = new DOMParser({ onError: () => {} }).parseFromString(xml, 'text/xml');
  const root = doc.documentElement;
  const defaults = child(child(child(child(root, 'w:docDefaults'), 'w:rPrDefault'), 'w:rPr'), 'w:sz');
  const size = defaults ? Number(val(defaults)) / 2 || DEFAULT_SIZE : DEFAULT_SIZE;
  const raw = new Map<string, { based?: string; format: StyleFormat }>();
  for (const style of elements(root).filter((e) => e.nodeName === 'w:style')) {
    const id = style.getAttribute('w:styleId');
    if (!id) continue;
    const rPr = child(style, 'w:rPr');
    const sz = Number(val(child(rPr, 'w:sz')));
    const format: StyleFormat = { ...BUILT_IN[id] };
    const bold = onOff(child(rPr, 'w:b'));
    if (bold !== undefined) format.bold = bold || BUILT_IN[id]?.bold === true;
    const italic = onOff(child(rPr, 'w:i'));
    if (italic !== undefined) format.italic = italic;
    if (sz > 0) format.size = sz / 2;
    const jc = val(child(child(style, 'w:pPr'), 'w:jc'));
    if (jc && ALIGN[jc]) format.align = ALIGN[jc];
    raw.set(id, { based: val(child(style, 'w:basedOn')), format });
  }
  for (const id of raw.keys()) {
    let format: StyleFormat = {};
    const chain: StyleFormat[] = [];
    for (let at: string | undefined = id, n = 0; at && n < 10; n++) {
      const style = raw.get(at);
      if (!style) break;
      chain.unshift(style.format);
      at = style.based;
    }
    for (const f of chain) format = { ...format, ...f };
    styles.set(id, format);
  }
  return { styles, size };
}

/** A page break inside a paragraph (`w:br w:type="page"`). */
const PAGE_BREAK = 'page';

/** Reads a document's body for layout. */
class Reader {
  constructor(
    private readonly styles: Map<string, StyleFormat>,
    private readonly size: number,
  ) {}

  /** The blocks of a container's children: paragraphs, tables, content controls' content. */
  blocks(container: Element | undefined, into: Block[] = []): Block[] {
    for (const el of elements(container)) {
      if (el.nodeName === 'w:p') this.paragraph(el, into);
      else if (el.nodeName === 'w:tbl') into.push(this.table(el));
      else if (el.nodeName === 'w:sdt') this.blocks(child(el, 'w:sdtContent'), into);
    }
    return into;
  }

  private table(tbl: Element): Table {
    const widths = elements(child(tbl, 'w:tblGrid')).map((col) => twips(val(col, 'w:w'), 0));
    const rows = elements(tbl)
      .filter((el) => el.nodeName === 'w:tr')
      .map((tr) =>
        elements(tr)
          .filter((el) => el.nodeName === 'w:tc')
          .map((tc) => {
            const span = Number(val(child(child(tc, 'w:tcPr'), 'w:gridSpan'))) || 1;
            // A nested table's paragraphs are read as the cell's own.
            const paragraphs: Paragraph[] = [];
            for (const block of this.blocks(tc)) {
              if (block.kind === 'paragraph') paragraphs.push(block);
              else if (block.kind === 'table') paragraphs.push(...block.rows.flat().flatMap((c) => c.paragraphs));
            }
            return { span, paragraphs };
          }),
      );
    return { kind: 'table', widths, rows };
  }

  /** A paragraph's blocks: itself, cut where it holds page breaks. */
  private paragraph(p: Element, into: Block[]): void {
    const pPr = child(p, 'w:pPr');
    const style = this.styles.get(val(child(pPr, 'w:pStyle')) ?? 'Normal') ?? {};
    const spacing = child(pPr, 'w:spacing');
    const line = Number(val(spacing, 'w:line'));
    const rule = val(spacing, 'w:lineRule');
    const jc = val(child(pPr, 'w:jc'));
    const ind = child(pPr, 'w:ind');
    const bullet = child(pPr, 'w:numPr') !== undefined;
    const base: Span = {
      text: '',
      bold: style.bold ?? false,
      italic: style.italic ?? false,
      underline: false,
      size: style.size ?? this.size,
    };
    const items: (Span | typeof PAGE_BREAK)[] = [];
    this.runs(p, base, items);
    let paragraph: Paragraph = {
      kind: 'paragraph',
      spans: [],
      align: (jc && ALIGN[jc]) || style.align || 'left',
      before: twips(val(spacing, 'w:before'), 0),
      after: twips(val(spacing, 'w:after'), 6),
      indent: twips(val(ind, 'w:left') ?? val(ind, 'w:start'), bullet ? 18 : 0),
      lineSpacing: line > 0 && (rule === undefined || rule === 'auto') ? Math.min(line / 240, 5) : 1,
      bullet,
      pageBreakBefore: onOff(child(pPr, 'w:pageBreakBefore')) === true,
    };
    for (const item of items) {
      if (item !== PAGE_BREAK) {
        paragraph.spans.push(item);
        continue;
      }
      if (paragraph.spans.length > 0) into.push(paragraph);
      into.push({ kind: 'break' });
      paragraph = { ...paragraph, spans: [], bullet: false, before: 0, pageBreakBefore: false };
    }
    into.push(paragraph);
  }

  /** The runs of a paragraph (inside hyperlinks, insertions, fields, …; not deletions) as spans and page breaks. */
  private runs(el: Element, base: Span, into: (Span | typeof PAGE_BREAK)[]): void {
    for (const node of elements(el)) {
      if (node.nodeName === 'w:r') this.run(node, base, into);
      else if (!['w:pPr', 'w:del', 'w:moveFrom', 'w:rPr'].includes(node.nodeName)) this.runs(node, base, into);
    }
  }

  /** A run's text (`w:t`, tabs as spaces, line breaks) and its page breaks. */
  private run(r: Element, base: Span, into: (Span | typeof PAGE_BREAK)[]): void {
    const rPr = child(r, 'w:rPr');
    const sz = Number(val(child(rPr, 'w:sz')));
    const u = child(rPr, 'w:u');
    const format: Span = {
      text: '',
      bold: onOff(child(rPr, 'w:b')) ?? base.bold,
      italic: onOff(child(rPr, 'w:i')) ?? base.italic,
      underline: u !== undefined && val(u) !== 'none',
      size: sz > 0 ? Math.min(sz / 2, 200) : base.size,
    };
    for (const node of elements(r)) {
      if (node.nodeName === 'w:t') into.push({ ...format, text: node.textContent ?? '' });
      else if (node.nodeName === 'w:tab') into.push({ ...format, text: '    ' });
      else if (node.nodeName === 'w:cr') into.push({ ...format, text: '\n' });
      else if (node.nodeName === 'w:br')
        into.push(val(node, 'w:type') === 'page' ? PAGE_BREAK : { ...format, text: '\n' });
    }
  }
}

/**
 * A document's body read for layout (layout.ts): its page size and margins from the body's `w:sectPr` (A4 and
 * 2.5 cm margins by default), its paragraphs (runs, alignment, spacing, styles, bullets, page breaks) and tables.
 * Headers, footers, images and floating content are not read.
 */
export function readDocument(documentXml: string, stylesXml?: string): ReadDocument {
  const { styles, size } = readStyles(stylesXml);
  const doc = new DOMParser({ onError: () => {} }).parseFromString(documentXml, 'text/xml');
  const body = child(doc.documentElement ?? undefined, 'w:body');
  const sectPr = child(body, 'w:sectPr');
  const pgSz = child(sectPr, 'w:pgSz');
  const pgMar = child(sectPr, 'w:pgMar');
  const page: PageSetup = {
    width: twips(val(pgSz, 'w:w'), A4.width),
    height: twips(val(pgSz, 'w:h'), A4.height),
    top: Math.abs(twips(val(pgMar, 'w:top'), A4.top)),
    right: twips(val(pgMar, 'w:right'), A4.right),
    bottom: Math.abs(twips(val(pgMar, 'w:bottom'), A4.bottom)),
    left: twips(val(pgMar, 'w:left'), A4.left),
  };
  // A page too small for its margins is read as A4.
  const usable = page.width - page.left - page.right > 36 && page.height - page.top - page.bottom > 36;
  return { page: usable ? page : A4, blocks: new Reader(styles, size).blocks(body) };
}
