/** What an image file's header declares, read before anything is decoded. */
export interface ImageHeader {
  type: 'png' | 'jpeg';
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * The type and size a PNG or JPEG declares, or undefined for anything else (or a header that does not hold
 * together). PNG: the IHDR chunk, which must come first. JPEG: the first start-of-frame marker, found by walking
 * the markers' lengths from the start (no scan of the entropy-coded data, which comes after it).
 */
export function readImageHeader(bytes: Uint8Array): ImageHeader | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length >= 24 && PNG_SIGNATURE.every((b, i) => bytes[i] === b)) {
    // Length (4), "IHDR" (4), width (4), height (4).
    if (String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') return undefined;
    return positive('png', view.getUint32(16), view.getUint32(20));
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    let at = 2;
    while (at + 4 <= bytes.length) {
      if (bytes[at] !== 0xff) return undefined;
      const marker = bytes[at + 1] as number;
      if (marker === 0xff) {
        at += 1; // fill byte
        continue;
      }
      if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        at += 2; // no length
        continue;
      }
      const length = view.getUint16(at + 2);
      if (length < 2) return undefined;
      const frame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
      if (frame) {
        if (at + 9 > bytes.length) return undefined;
        return positive('jpeg', view.getUint16(at + 7), view.getUint16(at + 5));
      }
      if (marker === 0xda || marker === 0xd9) return undefined; // a scan or the end before any frame
      at += 2 + length;
    }
  }
  return undefined;
}

function positive(type: ImageHeader['type'], width: number, height: number): ImageHeader | undefined {
  return width > 0 && height > 0 ? { type, width, height } : undefined;
}
