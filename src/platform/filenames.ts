/** Longest file name kept, in characters (longer names are cut, keeping the extension). */
export const MAX_FILENAME_LENGTH = 255;

const FALLBACK = 'file';

/**
 * A client's file name made safe to store and show: path components (`/` and
 * `\`) are dropped, control characters removed, whitespace trimmed, the
 * result cut to 255 characters (keeping a short extension). Names that end up
 * empty, `.` or `..` become `file`. The result is data only: Atrium never
 * uses a client's name as a path.
 */
export function sanitizeFilename(name: string | undefined | null): string {
  if (!name) return FALLBACK;
  const base = name.split(/[/\\]/).pop() ?? '';
  // C0 and C1 controls, DEL, and the Unicode line/paragraph separators and bidi overrides.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
  let clean = base.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, '').trim();
  if (clean === '' || clean === '.' || clean === '..') return FALLBACK;
  const chars = Array.from(clean);
  if (chars.length > MAX_FILENAME_LENGTH) {
    const dot = clean.lastIndexOf('.');
    const extension = dot > 0 ? Array.from(clean.slice(dot)) : [];
    const keep = extension.length > 0 && extension.length <= 16 ? extension : [];
    clean = chars.slice(0, MAX_FILENAME_LENGTH - keep.length).join('') + keep.join('');
  }
  return clean;
}
