/**
 * The signers' links and the mail more than one signature service writes to the outbox: the invitations of the
 * next signing order, and the signed document.
 */
import { randomUUID } from 'node:crypto';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { Clock } from '../../../platform/time.js';
import type { Audited } from '../../module.js';
import type { SigningLinks } from './links.js';
import { fullName, type SignaturesWork } from './records.js';
import type { ProcessRecord, SignerRecord } from './repository.js';
import type { ProcessView } from './views.js';

/** What a process's change needs to know of the call: the server's own origin, for the signers' links in mail. */
export interface CallOrigin {
  origin: string;
}

/** The path of a signer's page (under the HR API's prefix, where its routes are served). */
export function signingPath(links: SigningLinks, clientId: HrTenantId, signerId: string): string {
  return `/api/v2/client/signing/${links.token(clientId, signerId)}`;
}

/** A signer's link, as mail gives it. */
export function signingUrl(links: SigningLinks, call: CallOrigin, clientId: HrTenantId, signerId: string): string {
  return `${call.origin}${signingPath(links, clientId, signerId)}`;
}

/** Moves the lowest signing order still pending to `in_progress`, and mails their invitations. */
export async function inviteNext(
  tx: Audited<SignaturesWork>,
  deps: { links: SigningLinks; clock: Clock },
  clientId: HrTenantId,
  process: ProcessRecord,
  signers: SignerRecord[],
  call: CallOrigin,
): Promise<void> {
  const pending = signers.filter((s) => s.state === 'pending');
  if (pending.length === 0) return;
  const order = Math.min(...pending.map((s) => s.signingOrder));
  const at = deps.clock.now();
  await tx.signatures.setSignersState(clientId, process.id, ['pending'], 'in_progress', at, order);
  const invited = pending.filter((s) => s.signingOrder === order);
  await tx.outbox.insert(
    clientId,
    invited.map((s) => ({
      id: randomUUID(),
      kind: 'signature.invitation',
      toAddress: s.emailAddress,
      toName: fullName(s),
      subject: `Please sign: ${process.title}`,
      body: [
        `Hello ${fullName(s)},`,
        '',
        `You are asked to sign "${process.title}" (${process.reason}).`,
        ...(process.message ? ['', process.message] : []),
        ...(s.message ? ['', s.message] : []),
        '',
        `Sign or refuse it here: ${signingUrl(deps.links, call, clientId, s.id)}`,
        `It can be signed until ${process.expiryDate ?? 'the end of signing'}.`,
      ].join('\n'),
      relatedId: s.id,
    })),
    at,
  );
}

export async function mailSignedDocument(
  tx: Audited<SignaturesWork>,
  clock: Clock,
  clientId: HrTenantId,
  view: ProcessView,
  to: SignerRecord[],
): Promise<void> {
  await tx.outbox.insert(
    clientId,
    to.map((s) => ({
      id: randomUUID(),
      kind: 'signature.signed_document',
      toAddress: s.emailAddress,
      toName: fullName(s),
      subject: `Signed: ${view.process.title}`,
      body: `Hello ${fullName(s)},\n\n"${view.process.title}" is signed by everyone. The signed document (${view.process.filename}, file number ${view.process.fileNumber}) is attached.`,
      relatedId: s.id,
    })),
    clock.now(),
  );
}
