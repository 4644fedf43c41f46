/**
 * `Content-Disposition` in both directions: reading the file name a client
 * sends with a raw upload, and writing the header of a download (RFC 6266,
 * with an RFC 5987 `filename*` for names that are not plain ASCII).
 */

export interface ContentDisposition {
  /** `attachment`, `inline`, … (lower-case). */
  type: string;
  /** `filename*` when present and decodable, else `filename`; undefined when neither is given. */
  filename?: string;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/;

/** Reads `attachment; filename="x.pdf"` (quoted or token, or `filename*=UTF-8''…`); undefined when malformed. */
export function parseContentDisposition(header: string | undefined): ContentDisposition | undefined {
  if (header === undefined) return undefined;
  let rest = header.trim();
  const typeMatch = TOKEN.exec(rest);
  if (!typeMatch) return undefined;
  const type = typeMatch[0].toLowerCase();
  rest = rest.slice(typeMatch[0].length);
  const params = new Map<string, string>();
  for (;;) {
    rest = rest.replace(/^\s+/, '');
    if (rest === '') break;
    if (rest[0] !== ';') return undefined;
    rest = rest.slice(1).replace(/^\s+/, '');
    if (rest === '') break;
    const name = TOKEN.exec(rest);
    if (!name) return undefined;
    rest = rest.slice(name[0].length).replace(/^\s+/, '');
    if (rest[0] !== '=') return undefined;
    rest = rest.slice(1).replace(/^\s+/, '');
    let value: string;
    if (rest[0] === '"') {
      let i = 1;
      value = '';
      while (i < rest.length && rest[i] !== '"') {
        if (rest[i] === '\\' && i + 1 < rest.length) i++;
        value += rest[i];
        i++;
      }
      if (i >= rest.length) return undefined;
      rest = rest.slice(i + 1);
    } else {
      const token = /^[^;\s]+/.exec(rest);
      if (!token) return undefined;
      value = token[0];
      rest = rest.slice(token[0].length);
    }
    const key = name[0].toLowerCase();
    if (!params.has(key)) params.set(key, value);
  }
  const extended = params.get('filename*');
  const decoded = extended !== undefined ? decodeExtValue(extended) : undefined;
  const plain = params.get('filename');
  const filename = decoded ?? (plain === undefined ? undefined : utf8FromLatin1(plain));
  return filename === undefined ? { type } : { type, filename };
}

/**
 * Node reads header bytes as Latin-1; many clients (curl, browsers) put the
 * name's UTF-8 bytes in a plain `filename`. Those are decoded back when they
 * are valid UTF-8; anything else is kept as Latin-1.
 */
function utf8FromLatin1(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the check is for bytes above 0x7f, not control characters.
  if (!/[\x80-\xff]/.test(value) || /[^\x00-\xff]/.test(value)) return value;
  const decoded = Buffer.from(value, 'latin1').toString('utf8');
  return decoded.includes('\ufffd') ? value : decoded;
}

/** RFC 5987 ext-value: `UTF-8'lang'percent-encoded`; undefined for another charset or bad encoding. */
function decodeExtValue(value: string): string | undefined {
  const match = /^([^']*)'[^']*'(.*)$/.exec(value);
  if (!match) return undefined;
  const charset = (match[1] ?? '').toLowerCase();
  const encoded = match[2] ?? '';
  try {
    if (charset === 'utf-8') return decodeURIComponent(encoded);
    if (charset === 'iso-8859-1') {
      return encoded.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** RFC 5987 attr-char: everything else is percent-encoded. */
function encodeExtValue(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (c) => `%${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

/**
 * `attachment; filename="report.pdf"`, plus `filename*=UTF-8''…` when the
 * name is not printable ASCII (the plain `filename` then carries an ASCII
 * stand-in, `_` for each other character, for old clients).
 */
export function formatContentDisposition(filename: string, type: 'attachment' | 'inline' = 'attachment'): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const quoted = `${type}; filename="${ascii}"`;
  return ascii === filename ? quoted : `${quoted}; filename*=UTF-8''${encodeExtValue(filename)}`;
}
