import { fileTypeFromBuffer } from 'file-type';

/** How many leading bytes are kept to sniff the type (enough for Office documents' ZIP headers). */
export const SNIFF_BYTES = 64 * 1024;

export const UNKNOWN_CONTENT_TYPE = 'application/octet-stream';

/**
 * The content type the bytes themselves say (magic numbers, via `file-type`),
 * never what a client claimed. `application/octet-stream` when unknown
 * (plain text included: it has no signature).
 */
export async function sniffContentType(head: Uint8Array): Promise<string> {
  if (head.length === 0) return UNKNOWN_CONTENT_TYPE;
  try {
    const found = await fileTypeFromBuffer(head);
    return found?.mime ?? UNKNOWN_CONTENT_TYPE;
  } catch {
    // A truncated container (the head is only the first bytes) can make a detector give up.
    return UNKNOWN_CONTENT_TYPE;
  }
}

const OOXML = 'application/vnd.openxmlformats-officedocument';
const ODF = 'application/vnd.oasis.opendocument';

/**
 * The content types the bytes of a file with this extension may be detected as, for the extensions a document type
 * can restrict to. Formats with a signature must show it (`x.pdf` must start like a PDF); formats without one (text)
 * must show none, so a signed format (an executable, an image) cannot pass as them. An extension absent from this
 * table is judged by its name only.
 */
const CONTENT_TYPES_OF: Record<string, readonly string[]> = {
  pdf: ['application/pdf'],
  png: ['image/png'],
  jpg: ['image/jpeg'],
  jpeg: ['image/jpeg'],
  gif: ['image/gif'],
  bmp: ['image/bmp'],
  tif: ['image/tiff'],
  tiff: ['image/tiff'],
  webp: ['image/webp'],
  heic: ['image/heic', 'image/heif'],
  docx: [`${OOXML}.wordprocessingml.document`, 'application/zip'],
  xlsx: [`${OOXML}.spreadsheetml.sheet`, 'application/zip'],
  pptx: [`${OOXML}.presentationml.presentation`, 'application/zip'],
  odt: [`${ODF}.text`, 'application/zip'],
  ods: [`${ODF}.spreadsheet`, 'application/zip'],
  doc: ['application/x-cfb', 'application/msword'],
  xls: ['application/x-cfb', 'application/vnd.ms-excel'],
  ppt: ['application/x-cfb', 'application/vnd.ms-powerpoint'],
  zip: ['application/zip'],
  xml: ['application/xml', 'text/xml', UNKNOWN_CONTENT_TYPE],
  txt: [UNKNOWN_CONTENT_TYPE],
  csv: [UNKNOWN_CONTENT_TYPE],
};

/** Whether bytes detected as `contentType` may be a file with this extension (true when the table has no entry). */
export function contentMatchesExtension(extension: string, contentType: string): boolean {
  const accepted = CONTENT_TYPES_OF[extension.toLowerCase()];
  return accepted === undefined || accepted.includes(contentType);
}
