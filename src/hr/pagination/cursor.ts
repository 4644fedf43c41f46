import { createHmac } from 'node:crypto';
import type { KeysetPosition } from '../../platform/db/keyset.js';
import { safeEqual } from '../../platform/security/secrets.js';

/**
 * Cursors are numeric strings, as the spec requires, and carry the keyset
 * position itself, so paging needs no server-side state:
 *
 *   <mode digit> (<2-digit length><key digits>)… <12-digit MAC>
 *
 * The MAC binds the cursor to the caller's client and to the list, so a
 * cursor that was made up, altered or issued to someone else is refused.
 */
const MAC_DIGITS = 12;
const MAX_CURSOR_LENGTH = 200;

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
      if (!Number.isSafeInteger(key) || key < 0)
        throw new RangeError(`cursor key must be a non-negative integer: ${key}`);
      const digits = String(key);
      body += String(digits.length).padStart(2, '0') + digits;
    }
    return body + this.mac(scope, body);
  }

  /** The position a cursor stands for, or undefined when it is unknown here. */
  decode(cursor: string, scope: string, keyCount: number): KeysetPosition | undefined {
    if (!/^[0-9]+$/.test(cursor) || cursor.length > MAX_CURSOR_LENGTH || cursor.length <= MAC_DIGITS + 1) {
      return undefined;
    }
    const body = cursor.slice(0, -MAC_DIGITS);
    if (!safeEqual(cursor.slice(-MAC_DIGITS), this.mac(scope, body))) return undefined;
    const m = Number(body[0]);
    if (m < 1 || m > 4) return undefined;
    const keys: number[] = [];
    let i = 1;
    while (i < body.length) {
      const len = Number(body.slice(i, i + 2));
      const digits = body.slice(i + 2, i + 2 + len);
      if (!len || digits.length !== len) return undefined;
      keys.push(Number(digits));
      i += 2 + len;
    }
    if (keys.length !== keyCount) return undefined;
    return { keys, direction: m >= 3 ? 'before' : 'after', inclusive: m % 2 === 0 };
  }
}
