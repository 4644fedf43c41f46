/**
 * What the signature services' writes share: the repositories their unit of work binds, and the audit record of a
 * process's or a signer's change (its view as the change left it).
 */

import type { HrTenantId } from '../../../platform/db/tenant.js';
import { InvalidRequestError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/time.js';
import type { OutboxRepository } from '../../core/outbox/repository.js';
import type { UploadsRepository } from '../../core/uploads/repository.js';
import type { Audited } from '../../module.js';
import type { DocumentsRepository } from '../documents/repository.js';
import type { SignerCodeAttemptsRepository } from './code-attempts.js';
import { signatureEvents, signerEvents } from './events.js';
import { type NoLinks, presentProcess, presentSigner } from './present.js';
import type { SignaturesRepository } from './repository.js';
import { type ProcessView, processView, type SignerView, signerView } from './views.js';

/** The repositories signature writes touch. */
export interface SignaturesWork {
  signatures: SignaturesRepository;
  codeAttempts: SignerCodeAttemptsRepository;
  uploads: UploadsRepository;
  documents: DocumentsRepository;
  outbox: OutboxRepository;
}

export const invalid = (message: string) => new InvalidRequestError(message);

export function fullName(person: { firstName: string; lastName: string }): string {
  return `${person.firstName} ${person.lastName}`;
}

/** Signers' links for answers that have no request to make them from (audit events): none. */
export const NO_LINKS: NoLinks = { urlOf: () => null };

export async function recordProcess(
  tx: Audited<SignaturesWork>,
  clock: Clock,
  clientId: HrTenantId,
  id: string,
  action: (typeof signatureEvents)['actions'][number],
): Promise<ProcessView> {
  const view = await processView(tx.signatures, clock, clientId, id);
  await tx.audit.record(clientId, signatureEvents, action, {
    id,
    name: view.process.title,
    data: presentProcess(view),
  });
  return view;
}

export async function recordSigner(
  tx: Audited<SignaturesWork>,
  clock: Clock,
  clientId: HrTenantId,
  id: string,
  action: (typeof signerEvents)['actions'][number],
): Promise<SignerView> {
  const view = await signerView(tx.signatures, clock, clientId, id);
  await tx.audit.record(clientId, signerEvents, action, {
    id,
    name: fullName(view.signer),
    // Events never carry a signer's link: it lets whoever holds it sign.
    data: presentSigner(view, NO_LINKS),
  });
  return view;
}
