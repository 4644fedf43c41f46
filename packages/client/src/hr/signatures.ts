/**
 * Electronic signature (`/signature_processes`, `/signature_types`, `/signers`): processes from a PDF upload,
 * their signers in signing order, reminders, the signed PDF, archiving and sending; and the Atrium extensions that
 * sign and refuse as a signer, for tests without a browser (docs/hr-api.md, "Electronic signature").
 */
import type { RequestOptions } from '../http.js';
import type { AutoPager } from '../pagination.js';
import type { OutboxListQuery, OutboxMail } from '../schemas/hr/core/outbox.js';
import type {
  SignatureProcess,
  SignatureProcessCancel,
  SignatureProcessCreate,
  SignatureProcessListQuery,
  SignatureProcessPatch,
  SignatureProcessPut,
  SignatureType,
  SignatureTypeListQuery,
  Signer,
  SignerCreate,
  SignerPatch,
  SignerPut,
  SignerRefuse,
  SignerSign,
} from '../schemas/hr/documents/signatures.js';
import {
  type DownloadResponse,
  enc,
  type HrCore,
  type Id,
  type ListParams,
  type PreviewParams,
  type Verbs,
} from './core.js';

/** `hr.signatureProcesses`. */
export function signatureProcesses(core: HrCore, v: Verbs) {
  const path = '/signature_processes';
  const of = (id: Id) => `${path}/${enc(id)}`;
  return {
    /** Lists and searches processes (`q`, `state`, `employee_id`, organizations, dates), newest first by default. */
    list: v.list<SignatureProcess, SignatureProcessListQuery>(path),
    /** Creates a draft from a PDF uploaded with `uploads.create` (`upload_id`). */
    create: v.create<SignatureProcessCreate, SignatureProcess>(path),
    /** Cancels several processes, all or nothing; resolves with them. */
    cancel: (body: SignatureProcessCancel, options?: RequestOptions): Promise<SignatureProcess[]> =>
      core.json<SignatureProcess[]>('POST', `${path}/cancel`, { body }, options),
    /** Gets a process, with its signers' states. */
    retrieve: v.retrieve<SignatureProcess>(path),
    /** `PUT`: replaces a draft's settings (`state: 'signing'` starts it, `'canceled'` cancels it). Never creates. */
    upsert: (id: Id, body: SignatureProcessPut, options?: RequestOptions): Promise<SignatureProcess> =>
      core.json<SignatureProcess>('PUT', of(id), { body }, options),
    /** `PATCH`: changes what is sent (`{ state: 'signing' }` starts a draft). */
    update: v.update<SignatureProcessPatch, SignatureProcess>(path),
    /** Deletes a process in draft, rejected, canceled, expired, sent or done; resolves on 204. */
    del: v.del(path),
    /** The current PDF: as uploaded, then with the signatures stamped and, once done, the audit page. */
    download: (id: Id, options?: RequestOptions): Promise<DownloadResponse> => core.download(`${of(id)}/file`, options),
    /** A page of the current PDF as a PNG (raw `Response`); `page` from 1. */
    preview: (
      id: Id,
      params: Omit<PreviewParams, 'crop_rate'> & { page: number | string },
      options?: RequestOptions,
    ): Promise<DownloadResponse> => core.download(`${of(id)}/preview`, options, { ...params }),
    /** Files the signed PDF as a document of the employee signer, once the process is done; resolves on 204. */
    archive: async (id: Id, options?: RequestOptions): Promise<void> => {
      await core.call('POST', `${of(id)}/archive`, {}, options);
    },
    /** Mails the signed document to every signer (the outbox), once the process is done; resolves on 204. */
    send: async (id: Id, options?: RequestOptions): Promise<void> => {
      await core.call('POST', `${of(id)}/send`, {}, options);
    },
  };
}

/** `hr.signatureTypes`. */
export function signatureTypes(v: Verbs) {
  const path = '/signature_types';
  return {
    /** The signature types (the same three for every client). */
    list: v.list<SignatureType, SignatureTypeListQuery>(path),
    /** Gets a signature type. */
    retrieve: v.retrieve<SignatureType>(path),
  };
}

/** `hr.signers`. */
export function signers(core: HrCore, v: Verbs) {
  const path = '/signers';
  const of = (id: Id) => `${path}/${enc(id)}`;
  return {
    /** The signers of a process, in signing order (not paged). */
    list: (signatureProcessId: Id, options?: RequestOptions): Promise<Signer[]> =>
      core.json<Signer[]>('GET', path, { query: { signature_process_id: signatureProcessId } }, options),
    /** Adds a signer to a draft process. */
    create: v.create<SignerCreate, Signer>(path),
    /** Reminds several signers whose turn it is, all or nothing; resolves on 204. */
    remindMany: async (signerIds: Id[], options?: RequestOptions): Promise<void> => {
      await core.call('POST', `${path}/remind`, { body: { signer_ids: signerIds } }, options);
    },
    /** Gets a signer, with its `signing_url` while the process is signing. */
    retrieve: v.retrieve<Signer>(path),
    /** `PUT`: replaces a signer of a draft process. Never creates. */
    upsert: (id: Id, body: SignerPut, options?: RequestOptions): Promise<Signer> =>
      core.json<Signer>('PUT', of(id), { body }, options),
    /** `PATCH`: changes what is sent, in a draft process. */
    update: v.update<SignerPatch, Signer>(path),
    /** Removes a signer of a draft process; resolves on 204. */
    del: v.del(path),
    /** Reminds a signer whose turn it is; resolves on 204. */
    remind: async (id: Id, options?: RequestOptions): Promise<void> => {
      await core.call('POST', `${of(id)}/remind`, {}, options);
    },
    /** Signs as the signer (Atrium extension): what the signing page does. */
    sign: (id: Id, body: SignerSign, options?: RequestOptions): Promise<Signer> =>
      core.json<Signer>('POST', `${of(id)}/sign`, { body }, options),
    /** Refuses as the signer, with a comment (Atrium extension): the process is rejected. */
    refuse: (id: Id, body: SignerRefuse, options?: RequestOptions): Promise<Signer> =>
      core.json<Signer>('POST', `${of(id)}/refuse`, { body }, options),
  };
}

/** `hr.outbox` (Atrium extension): the mail Atrium would have sent, newest first. */
export function outbox(core: HrCore) {
  return {
    list: (params?: ListParams<OutboxListQuery>, options?: RequestOptions): AutoPager<OutboxMail> =>
      core.pager<OutboxMail>('/outbox', params as Record<string, unknown>, options),
  };
}
