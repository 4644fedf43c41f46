import { degrees, PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from '@cantoo/pdf-lib';

/** One signature to stamp: who signed, the name they typed, when, and where (else a block on the last page). */
export interface StampedSignature {
  signer: string;
  typedName: string;
  /** As shown: `2026-11-27 09:15:02 UTC`. */
  signedAt: string;
  email: string | null;
  order: number;
  /** From the page's top-left corner, in `unit`; none: a block at the foot of the last page. */
  positions: { page: number; unit: string; x: number; y: number; width: number; height: number }[];
}

/** What the audit page says of the process. */
export interface SignatureStamp {
  title: string;
  fileNumber: string;
  processId: string;
  originalSha256: string;
  completedAt: string;
  /** Whether to add the audit page: once every signer has signed. */
  audit: boolean;
  signatures: StampedSignature[];
}

const POINTS_PER: Record<string, number> = { pt: 1, inch: 72, cm: 72 / 2.54 };
const BLOCK = { width: 180, height: 54, margin: 36, gap: 12 };
const INK = rgb(0.1, 0.2, 0.55);
const GREY = rgb(0.35, 0.35, 0.35);

/** Text the standard font can draw: other characters become `?` (Helvetica covers WinAnsi only). */
function drawable(font: PDFFont, text: string): string {
  const supported = new Set(font.getCharacterSet());
  return [...text].map((c) => (supported.has(c.codePointAt(0) ?? 0) ? c : '?')).join('');
}

function drawBlock(
  page: PDFPage,
  fonts: { regular: PDFFont; bold: PDFFont },
  signature: StampedSignature,
  box: { x: number; y: number; width: number; height: number },
): void {
  page.drawRectangle({ ...box, borderColor: INK, borderWidth: 1, color: rgb(0.96, 0.97, 1) });
  const size = Math.max(5, Math.min(9, box.height / 5));
  const lines: [string, PDFFont, number][] = [
    [`Signed electronically by ${signature.typedName}`, fonts.bold, size],
    [`${signature.signer}, signer ${signature.order}`, fonts.regular, size * 0.9],
    [signature.signedAt, fonts.regular, size * 0.9],
  ];
  let y = box.y + box.height - size - 4;
  for (const [text, font, fontSize] of lines) {
    if (y < box.y + 2) break;
    page.drawText(drawable(font, text), {
      x: box.x + 5,
      y,
      size: fontSize,
      font,
      color: INK,
      maxWidth: box.width - 10,
    });
    y -= fontSize + 3;
  }
}

/**
 * The signed PDF of a process: the original with a visible signature block per signer (at the signer's positions,
 * else at the foot of the last page, several side by side), then one page more, the audit trail. Runs in the PDF
 * worker thread (worker.ts): the original is a client's file. Throws when the PDF cannot be read or written
 * (encrypted, broken): the caller gives up on it.
 */
export async function stampSignatures(bytes: Uint8Array, stamp: SignatureStamp): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
  };
  const pages = doc.getPages();
  const last = pages[pages.length - 1];
  if (!last) throw new Error('the PDF has no page');
  let slot = 0;
  for (const signature of stamp.signatures) {
    if (signature.positions.length > 0) {
      for (const position of signature.positions) {
        const page = pages[Math.min(position.page, pages.length) - 1] as PDFPage;
        const unit = POINTS_PER[position.unit] ?? 1;
        const { height } = page.getSize();
        const box = {
          x: position.x * unit,
          width: position.width * unit,
          height: position.height * unit,
          y: height - (position.y + position.height) * unit,
        };
        drawBlock(page, fonts, signature, box);
      }
      continue;
    }
    const { width } = last.getSize();
    const perRow = Math.max(1, Math.floor((width - 2 * BLOCK.margin + BLOCK.gap) / (BLOCK.width + BLOCK.gap)));
    const column = slot % perRow;
    const row = Math.floor(slot / perRow);
    slot++;
    drawBlock(last, fonts, signature, {
      x: BLOCK.margin + column * (BLOCK.width + BLOCK.gap),
      y: BLOCK.margin + row * (BLOCK.height + BLOCK.gap),
      width: BLOCK.width,
      height: BLOCK.height,
    });
  }

  if (!stamp.audit) return doc.save();
  const audit = doc.addPage([595.28, 841.89]);
  let y = 790;
  const line = (text: string, font: PDFFont, size: number, color = rgb(0, 0, 0)) => {
    audit.drawText(drawable(font, text), { x: 56, y, size, font, color, maxWidth: 483 });
    y -= size + 8;
  };
  line('Signature audit trail', fonts.bold, 18, INK);
  y -= 6;
  line(`Document: ${stamp.title}`, fonts.regular, 11);
  line(`File number: ${stamp.fileNumber}`, fonts.regular, 11);
  line(`Signature process: ${stamp.processId}`, fonts.regular, 11);
  line(`SHA-256 of the document sent for signature: ${stamp.originalSha256}`, fonts.regular, 8, GREY);
  line(`Completed: ${stamp.completedAt}`, fonts.regular, 11);
  y -= 8;
  for (const signature of stamp.signatures) {
    line(`Signer ${signature.order}: ${signature.signer}`, fonts.bold, 11);
    line(`Signed as "${signature.typedName}" on ${signature.signedAt}`, fonts.regular, 10);
    if (signature.email) line(`E-mail: ${signature.email}`, fonts.regular, 10, GREY);
    y -= 4;
    if (y < 80) break;
  }
  line('Signed with Atrium, a sandbox: this signature has no legal value.', fonts.regular, 8, GREY);
  return doc.save();
}

/** What a duplicate says of itself: the word across each page, and the line at its foot. */
export interface DuplicateStamp {
  /** As shown: `Duplicate of contract.pdf, made 2026-11-27 09:15:02 UTC`. */
  footer: string;
}

/**
 * A duplicate of a PDF (reference: `GET …/duplicate`): every page of the original with "DUPLICATE" written across
 * it, light and diagonal, and a line at its foot saying what it is a copy of and when it was made. Runs in the PDF
 * worker thread; throws when the PDF cannot be read or written (encrypted, broken).
 */
export async function stampDuplicate(bytes: Uint8Array, stamp: DuplicateStamp): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const pages = doc.getPages();
  if (pages.length === 0) throw new Error('the PDF has no page');
  for (const page of pages) {
    const { width, height } = page.getSize();
    const size = Math.max(12, Math.min(width, height) / 7);
    const text = 'DUPLICATE';
    const textWidth = bold.widthOfTextAtSize(text, size);
    // Centred on the page, along its diagonal.
    const angle = Math.atan2(height, width);
    page.drawText(text, {
      x: width / 2 - (Math.cos(angle) * textWidth) / 2 + (Math.sin(angle) * size) / 3,
      y: height / 2 - (Math.sin(angle) * textWidth) / 2 - (Math.cos(angle) * size) / 3,
      size,
      font: bold,
      color: rgb(0.75, 0.1, 0.1),
      opacity: 0.18,
      rotate: degrees((angle * 180) / Math.PI),
    });
    page.drawText(drawable(regular, stamp.footer), {
      x: 18,
      y: 10,
      size: 7,
      font: regular,
      color: GREY,
      maxWidth: Math.max(10, width - 36),
    });
  }
  return doc.save();
}
