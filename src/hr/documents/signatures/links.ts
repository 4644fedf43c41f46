import { createHmac } from 'node:crypto';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import { hrTenantId } from '../../../platform/db/tenant.js';
import { safeEqual } from '../../../platform/security/secrets.js';

/** Where the signing page is served, under the HR API's prefix. */
export const SIGNING_PAGE_PATH = '/signing';

/**
 * The signers' links (`signing_url`): `<client>.<signer>.<mac>`, the MAC an HMAC-SHA256 under a key derived from
 * the master key, so a link is made again for every answer and nothing is stored. A link names its client, so the
 * signing page reads that client's data only; it cannot be guessed or altered, and it stops working when the
 * signer can no longer sign. A new master key makes new links.
 */
export class SigningLinks {
  constructor(private readonly key: Buffer) {}

  private mac(clientId: HrTenantId, signerId: string): string {
    return createHmac('sha256', this.key).update(`signer:${clientId}:${signerId}`).digest('base64url');
  }

  token(clientId: HrTenantId, signerId: string): string {
    return `${Buffer.from(clientId, 'utf8').toString('base64url')}.${signerId}.${this.mac(clientId, signerId)}`;
  }

  /** The client and signer of a token, or undefined when it is malformed or its MAC is wrong. */
  open(token: string): { clientId: HrTenantId; signerId: string } | undefined {
    if (token.length > 300) return undefined;
    const [client, signerId, mac, ...rest] = token.split('.');
    if (!client || !signerId || !mac || rest.length > 0 || !/^[0-9a-f-]{36}$/.test(signerId)) return undefined;
    const clientId = Buffer.from(client, 'base64url').toString('utf8');
    if (!safeEqual(this.mac(hrTenantId(clientId), signerId), mac)) return undefined;
    return { clientId: hrTenantId(clientId), signerId };
  }
}
