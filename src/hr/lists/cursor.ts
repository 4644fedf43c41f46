import { createHmac } from 'node:crypto';
import type { KeysetPosition, KeyValue } from '../../platform/db/keyset.js';
import { safeEqual } from '../../platform/security/secrets.js';

/**
 * Cursors are numeric strings, as the spec requires, and carry the keyset
 * position itself, so paging needs no server-side state:
 *
 *   <mode digit> <key>… <12-digit MAC>
 *   key = 0 <2-digit length> <digits>             an integer
 *       | 1 <4-digit length> <3 digits per byte>  a text (UTF-8), for lists sorted by name
 *
 * The MAC binds the cursor to the caller's client and to the list, so a
 * cursor that was made up, altered or issued to someone else is refused.
 */
const MAC_DIGITS = 12;
export const MAX_CURSOR_LENGTH = 4096;

function mode(position: KeysetPosition): number {
  return 1 + (position.direction === 'before' ? 2 : 0) + (position.inclusive ? 1 : 0);
}

export class CursorCodec {
  constructor(private readonly secret: string) {}

  private mac(scope: string, body: string): string {
    const digest = createHmac('sha256', this.secret).update(`${scope}\n${body}`).digest();
    return (digest.readBigUInt64BE(0) % 10n ** BigInt(MAC_DIGITS)).toString().padStart(MAC_DIGITS, '0');
  }

  encode(position: KeysetPosition, scope: string): string {
    let body = String(mode(position));
    for (const key of position.keys) {
      if (typeof key === 'string') {
        const bytes = [...Buffer.from(key, 'utf8')];
        body += `1${String(bytes.length).padStart(4, '0')}${bytes.map((b) => String(b).padStart(3, '0')).join('')}`;
        continue;
      }
      if (!Number.isSafeInteger(key) || key < 0)
        throw new RangeError(`cursor key must be a non-negative integer: ${key}`);
      const digits = String(key);
      body += `0${String(digits.length).padStart(2, '0')}${digits}`;
    }
    return body + this.mac(scope, body);
  }

  /** The position a cursor stands for, or undefined when it is unknown here. */
  decode(cursor: string, scope: string, keyCount?: number): KeysetPosition | undefined {
    if (!/^[0-9]+$/.test(cursor) || cursor.length > MAX_CURSOR_LENGTH || cursor.length <= MAC_DIGITS + 1) {
      return undefined;
    }
    const body = cursor.slice(0, -MAC_DIGITS);
    if (!safeEqual(cursor.slice(-MAC_DIGITS), this.mac(scope, body))) return undefined;
    const m = Number(body[0]);
    if (m < 1 || m > 4) return undefined;
    const keys: KeyValue[] = [];
    let i = 1;
    while (i < body.length) {
      const type = body[i];
      if (type === '0') {
        const len = Number(body.slice(i + 1, i + 3));
        const digits = body.slice(i + 3, i + 3 + len);
        if (!len || digits.length !== len) return undefined;
        keys.push(Number(digits));
        i += 3 + len;
      } else if (type === '1') {
        const len = Number(body.slice(i + 1, i + 5));
        const digits = body.slice(i + 5, i + 5 + len * 3);
        if (digits.length !== len * 3) return undefined;
        const bytes = digits.match(/\d{3}/g)?.map(Number) ?? [];
        if (bytes.some((b) => b > 255)) return undefined;
        keys.push(Buffer.from(bytes).toString('utf8'));
        i += 5 + len * 3;
      } else {
        return undefined;
      }
    }
    if (keys.length === 0 || (keyCount !== undefined && keys.length !== keyCount)) return undefined;
    return { keys, direction: m >= 3 ? 'before' : 'after', inclusive: m % 2 === 0 };
  }
}
