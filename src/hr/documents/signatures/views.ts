/**
 * What a process's or a signer's answer shows (the views), and the reads that build them, shared by the signature
 * services: a process's state as of an instant, a process with its signers, organizations and sender, a signer with
 * its process's state.
 */

import type { HrTenantId } from '../../../platform/db/tenant.js';
import { NotFoundError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/time.js';
import type { ProcessRecord, SignaturesRepository, SignerRecord } from './repository.js';

/** A process with what its answer shows. */
export interface ProcessView {
  process: ProcessRecord;
  /** Its state as of now: a `signing` process past its expiry is `expired` (the runner writes it a moment later). */
  state: string;
  signers: SignerRecord[];
  organizations: { id: string; name: string }[];
  sender: { id: string; firstName: string; lastName: string } | null;
}

/** A signer with its process's state, as its answer needs (`signing_url` is shown while it may sign). */
export interface SignerView {
  signer: SignerRecord;
  processState: string;
  clientId: HrTenantId;
}

/** A process's state as of `at`. */
export function stateOf(process: ProcessRecord, at: number): string {
  return process.state === 'signing' && process.expiresAt !== null && process.expiresAt <= at
    ? 'expired'
    : process.state;
}

/** A process's view, read through `repo` (the reads' or a transaction's), or a 404. */
export async function processView(
  repo: SignaturesRepository,
  clock: Clock,
  clientId: HrTenantId,
  id: string,
): Promise<ProcessView> {
  const process = await repo.find(clientId, id);
  if (!process) throw new NotFoundError('signature process', id);
  return (await processViews(repo, clock, clientId, [process]))[0] as ProcessView;
}

export async function processViews(
  repo: SignaturesRepository,
  clock: Clock,
  clientId: HrTenantId,
  processes: ProcessRecord[],
): Promise<ProcessView[]> {
  const ids = processes.map((p) => p.id);
  const [signers, organizations, users] = await Promise.all([
    repo.signersOf(clientId, ids),
    repo.organizationsOf(clientId, ids),
    repo.usersNamed(
      clientId,
      processes.flatMap((p) => (p.senderId ? [p.senderId] : [])),
    ),
  ]);
  const at = clock.now();
  return processes.map((process) => {
    const sender = process.senderId ? users.get(process.senderId) : undefined;
    return {
      process,
      state: stateOf(process, at),
      signers: signers.get(process.id) ?? [],
      organizations: organizations.get(process.id) ?? [],
      sender: sender && process.senderId ? { id: process.senderId, ...sender } : null,
    };
  });
}

/** A signer's view, read through `repo` (the reads' or a transaction's), or a 404. */
export async function signerView(
  repo: SignaturesRepository,
  clock: Clock,
  clientId: HrTenantId,
  id: string,
): Promise<SignerView> {
  const signer = await repo.findSigner(clientId, id);
  if (!signer) throw new NotFoundError('signer', id);
  const process = (await repo.find(clientId, signer.processId)) as ProcessRecord;
  return { signer, processState: stateOf(process, clock.now()), clientId };
}
