import { randomUUID } from 'node:crypto';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { OutboxRepository } from '../../core/outbox/repository.js';
import type { GenerationRecord, Recipient } from './repository.js';

/** The outbox kind of a generated document's mail. */
export const GENERATION_MAIL = 'document_generation.document';

/**
 * Records one mail per recipient in the outbox (docs/hr-api.md, "Outbox"), in the caller's transaction: the
 * document's download path is in its body, as Atrium sends no attachments.
 */
export async function mailGenerated(
  tx: { outbox: OutboxRepository },
  clientId: HrTenantId,
  g: GenerationRecord,
  recipients: readonly Recipient[],
  at: number,
): Promise<void> {
  await tx.outbox.insert(
    clientId,
    recipients.map((r) => {
      const name = `${r.firstname} ${r.lastname}`;
      return {
        id: randomUUID(),
        kind: GENERATION_MAIL,
        toAddress: r.email,
        toName: name,
        subject: 'A document was generated for you',
        body: `Hello ${name},\n\nYour document (${g.format}) is ready: GET /api/v2/client/document_generations/${g.id}/file`,
        relatedId: g.id,
      };
    }),
    at,
  );
}
