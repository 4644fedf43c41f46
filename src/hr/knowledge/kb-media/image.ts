import { readImageHeader } from '../../../platform/pdf/image-header.js';

/** What the bytes of an accepted image are. */
export interface ImageInfo {
  contentType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
  width: number;
  height: number;
}

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

/** A PNG whose chunks hold together from the signature to `IEND` (each length within the file). */
function pngChunksHold(bytes: Uint8Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  while (at + 12 <= bytes.length) {
    const length = view.getUint32(at);
    const type = ascii(bytes, at + 4, at + 8);
    if (at + 12 + length > bytes.length) return false;
    if (type === 'IEND') return true;
    at += 12 + length;
  }
  return false;
}

function gif(bytes: Uint8Array): ImageInfo | undefined {
  if (bytes.length < 14) return undefined;
  const signature = ascii(bytes, 0, 6);
  if (signature !== 'GIF87a' && signature !== 'GIF89a') return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const width = view.getUint16(6, true);
  const height = view.getUint16(8, true);
  // A GIF ends with its trailer, 0x3B.
  if (width === 0 || height === 0 || bytes[bytes.length - 1] !== 0x3b) return undefined;
  return { contentType: 'image/gif', width, height };
}

/** The start code of a VP8 key frame. */
const VP8_START_CODE = [0x9d, 0x01, 0x2a];

function webp(bytes: Uint8Array): ImageInfo | undefined {
  if (bytes.length < 30 || ascii(bytes, 0, 4) !== 'RIFF' || ascii(bytes, 8, 12) !== 'WEBP') return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(4, true) + 8 > bytes.length) return undefined;
  const chunk = ascii(bytes, 12, 16);
  let width = 0;
  let height = 0;
  if (chunk === 'VP8 ') {
    // A key frame: its start code, then 14-bit width and height.
    if (!VP8_START_CODE.every((b, i) => bytes[23 + i] === b)) return undefined;
    width = view.getUint16(26, true) & 0x3fff;
    height = view.getUint16(28, true) & 0x3fff;
  } else if (chunk === 'VP8L') {
    if (bytes[20] !== 0x2f) return undefined;
    const bits = view.getUint32(21, true);
    width = (bits & 0x3fff) + 1;
    height = ((bits >>> 14) & 0x3fff) + 1;
  } else if (chunk === 'VP8X') {
    width = (bytes[24] as number) + ((bytes[25] as number) << 8) + ((bytes[26] as number) << 16) + 1;
    height = (bytes[27] as number) + ((bytes[28] as number) << 8) + ((bytes[29] as number) << 16) + 1;
  } else {
    return undefined;
  }
  return width > 0 && height > 0 ? { contentType: 'image/webp', width, height } : undefined;
}

/**
 * The image the bytes are, read from the bytes alone (never the name or the client's content type): a PNG (its
 * IHDR and chunks up to IEND), a JPEG (its markers up to the first frame), a GIF (its screen size and trailer) or a
 * WebP (its RIFF header and first VP8/VP8L/VP8X chunk), with its size in pixels; undefined for anything else.
 */
export function imageInfo(bytes: Uint8Array): ImageInfo | undefined {
  const header = readImageHeader(bytes);
  if (header?.type === 'png') {
    return pngChunksHold(bytes) ? { contentType: 'image/png', width: header.width, height: header.height } : undefined;
  }
  if (header?.type === 'jpeg') return { contentType: 'image/jpeg', width: header.width, height: header.height };
  return gif(bytes) ?? webp(bytes);
}
