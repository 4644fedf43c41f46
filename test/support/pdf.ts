/** PDFs for the page count, preview and signature tests: made with the PDF library, or written by hand to be hostile. */
import { deflateSync } from 'node:zlib';
import { PDFDocument, rgb } from '@cantoo/pdf-lib';

export async function pdf(pages: number, options: { objectStreams?: boolean } = {}): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage().drawText(`Page ${i + 1}`, { x: 50, y: 700 });
  return Buffer.from(await doc.save({ useObjectStreams: options.objectStreams ?? true }));
}

/** A PDF written by hand from its objects (the byte offsets of the cross-reference table computed). */
export function handWritten(objects: string[], trailer = ''): Buffer {
  let body = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body);
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailer}>>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/**
 * A page tree of `depth` levels where every node lists the same child twice: 2^depth leaves for the library's own
 * recursive walk (`getPageCount()`), which would not end; a node reached twice makes the tree unreadable here.
 */
export function sharedPageTree(depth: number): Buffer {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>'];
  for (let level = 0; level < depth; level++) {
    const self = level + 2;
    objects.push(`<< /Type /Pages /Kids [${self + 1} 0 R ${self + 1} 0 R] /Count ${2 ** (depth - level)} >>`);
  }
  objects.push(`<< /Type /Page /Parent ${depth + 1} 0 R /MediaBox [0 0 612 792] >>`);
  return handWritten(objects);
}

/** A page tree whose node lists itself: the library's walk recurses until the stack overflows. */
export const CYCLIC = handWritten([
  '<< /Type /Catalog /Pages 2 0 R >>',
  '<< /Type /Pages /Kids [3 0 R 2 0 R] /Count 2 >>',
  '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
]);

/** Two pages, with an `/Encrypt` dictionary in the trailer (the page tree is readable without the password). */
export const ENCRYPTED = handWritten(
  [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
    '<< /Filter /Standard /V 2 /R 3 /Length 128 /P -1028 /O <0000> /U <0000> >>',
  ],
  '/Encrypt 5 0 R /ID [<00112233445566778899aabbccddeeff> <00112233445566778899aabbccddeeff>] ',
);

/**
 * A compression bomb: an object stream (which the library inflates while it loads the file) of `mb` MiB of spaces,
 * about a thousandth of that compressed.
 */
export function bomb(mb: number): Buffer {
  const compressed = deflateSync(Buffer.alloc(mb * 1024 * 1024, 0x20), { level: 9 });
  let head = '%PDF-1.7\n';
  const offsets: number[] = [];
  offsets.push(head.length);
  head += '1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n';
  offsets.push(head.length);
  head += '2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n';
  offsets.push(head.length);
  head += `3 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${compressed.length} >>\nstream\n`;
  const tail = '\nendstream\nendobj\n';
  const xref = head.length + compressed.length + tail.length;
  let trailer = 'xref\n0 4\n0000000000 65535 f \n';
  for (const offset of offsets) trailer += `${String(offset).padStart(10, '0')} 00000 n \n`;
  trailer += `trailer\n<< /Size 4 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.concat([Buffer.from(head), compressed, Buffer.from(tail + trailer)]);
}

/** A PDF of `pages` US-letter pages, page `marked` with a black 100 pt square 20 pt from its top-left corner. */
export async function markedPdf(pages: number, marked: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([612, 792]);
    page.drawText(`Page ${i}`, { x: 300, y: 700 });
    if (i === marked) page.drawRectangle({ x: 20, y: 792 - 20 - 100, width: 100, height: 100, color: rgb(0, 0, 0) });
  }
  return Buffer.from(await doc.save());
}

/**
 * A one-page PDF whose page draws eight million lines: a content stream of 144 MB, deflated to a few hundred KB.
 * Valid, and small, but no renderer draws it within a few seconds or a few hundred MB of heap.
 */
export function drawingBomb(): Buffer {
  const content = deflateSync(Buffer.from('0 0 m 100 100 l S\n'.repeat(8_000_000)), { level: 9 });
  let head = '%PDF-1.7\n';
  const offsets: number[] = [];
  for (const object of [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
  ]) {
    offsets.push(head.length);
    head += `${offsets.length} 0 obj\n${object}\nendobj\n`;
  }
  offsets.push(head.length);
  head += `4 0 obj\n<< /Filter /FlateDecode /Length ${content.length} >>\nstream\n`;
  const tail = '\nendstream\nendobj\n';
  const xref = head.length + content.length + tail.length;
  let trailer = 'xref\n0 5\n0000000000 65535 f \n';
  for (const offset of offsets) trailer += `${String(offset).padStart(10, '0')} 00000 n \n`;
  trailer += `trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.concat([Buffer.from(head), content, Buffer.from(tail + trailer)]);
}

/**
 * A one-page PDF that draws one image of `side` × `side` RGB pixels, all black: a few KB deflated, `side² × 3`
 * bytes decoded (6,000: 108 MB, more as the renderer's RGBA copy). Valid, within the renderer's pixel cap
 * (render.ts, MAX_IMAGE_PIXELS), and costly in native memory: the hostile previews of issue 49.
 */
export function imageBomb(side: number): Buffer {
  const pixels = deflateSync(Buffer.alloc(side * side * 3), { level: 9 });
  const draw = Buffer.from('q 612 0 0 792 0 0 cm /Im0 Do Q\n');
  let head = '%PDF-1.7\n';
  const offsets: number[] = [];
  for (const object of [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im0 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${draw.length} >>\nstream\n${draw.toString('latin1')}endstream`,
  ]) {
    offsets.push(head.length);
    head += `${offsets.length} 0 obj\n${object}\nendobj\n`;
  }
  offsets.push(head.length);
  head += `5 0 obj\n<< /Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode /Length ${pixels.length} >>\nstream\n`;
  const tail = '\nendstream\nendobj\n';
  const xref = head.length + pixels.length + tail.length;
  let trailer = 'xref\n0 6\n0000000000 65535 f \n';
  for (const offset of offsets) trailer += `${String(offset).padStart(10, '0')} 00000 n \n`;
  trailer += `trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), pixels, Buffer.from(tail + trailer)]);
}
