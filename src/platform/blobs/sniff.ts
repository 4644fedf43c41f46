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
