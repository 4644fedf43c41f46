/**
 * A signature process started with one signer (reference §5.4), made through the HR API as a client would: the
 * tests of the signing page, of its limits and of what the request log keeps of a signer's link start from it.
 */
import assert from 'node:assert/strict';
import { expectJson } from './admin.js';
import type { HrCaller, TestServer } from './harness.js';
import { pdf } from './pdf.js';
import { upload } from './people-assist.js';

export interface StartedSigner {
  processId: string;
  signerId: string;
  /** The signer's link (`…/signing/<token>`). */
  signingUrl: string;
}

/**
 * Creates a one-page process (with `process`'s extra fields, a `callback_url` for instance) and one signer (with
 * `signer`'s, an `access_code` for instance), starts it, and answers the signer's link.
 */
export async function startedSigner(
  server: TestServer,
  hr: HrCaller,
  extra: { process?: Record<string, unknown>; signer?: Record<string, unknown> } = {},
): Promise<StartedSigner> {
  const process = await expectJson<{ id: string }>(
    await hr.call('POST', '/signature_processes', {
      signature_type_id: 'docusign',
      title: 'Contract',
      reason: 'Hiring',
      upload_id: await upload(server, hr, await pdf(1), 'contract.pdf'),
      ...extra.process,
    }),
    201,
  );
  const signer = await expectJson<{ id: string }>(
    await hr.call('POST', '/signers', {
      signature_process_id: process.id,
      first_name: 'Ada',
      last_name: 'Lovelace',
      email_address: 'ada@example.com',
      ...extra.signer,
    }),
    201,
  );
  assert.equal((await hr.call('PATCH', `/signature_processes/${process.id}`, { state: 'signing' })).status, 200);
  const { signing_url: signingUrl } = await expectJson<{ signing_url: string }>(
    await hr.call('GET', `/signers/${signer.id}`),
    200,
  );
  return { processId: process.id, signerId: signer.id, signingUrl };
}
