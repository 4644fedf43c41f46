/**
 * The runner's signature queues (stamping and completion, expiry, callbacks), what their jobs carry, and the
 * queuing of a callback, which more than one change does.
 */

import type { HrTenantId } from '../../../platform/db/tenant.js';
import { enqueue } from '../../../platform/jobs/index.js';
import type { Clock } from '../../../platform/time.js';
import { afterWork } from '../../audit/actor.js';
import type { Audited } from '../../module.js';
import { presentProcess } from './present.js';
import type { SignaturesWork } from './records.js';
import type { ProcessView } from './views.js';

export const SIGNATURE_FINISH_QUEUE = 'signature_finish';
export const SIGNATURE_EXPIRY_QUEUE = 'signature_expiry';
export const SIGNATURE_CALLBACK_QUEUE = 'signature_callback';

/** What a callback carries: the process as `GET` shows it, without the signers' links. */
export interface CallbackPayload {
  clientId: HrTenantId;
  processId: string;
  url: string;
  body: string;
}

export interface ProcessJob {
  clientId: HrTenantId;
  processId: string;
}

/** Queues the call of the process's `callback_url`, if it has one, with the process as its view shows it. */
export async function queueCallback(
  tx: Audited<SignaturesWork>,
  deps: { clock: Clock; wakeJobs: () => void; callbacks: { retryForMs: number } },
  clientId: HrTenantId,
  view: ProcessView,
): Promise<void> {
  const url = view.process.callbackUrl;
  if (url === null) return;
  await enqueue(
    tx.signatures.db,
    {
      queue: SIGNATURE_CALLBACK_QUEUE,
      tenant: clientId,
      orderingKey: `signature-callback:${view.process.id}`,
      payload: {
        clientId,
        processId: view.process.id,
        url,
        body: JSON.stringify(presentProcess(view)),
      } satisfies CallbackPayload,
      giveUpAfterMs: deps.callbacks.retryForMs,
      maxAttempts: null,
    },
    deps.clock.wall(),
  );
  afterWork(deps.wakeJobs);
}
