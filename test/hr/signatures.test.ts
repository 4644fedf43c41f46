/**
 * Electronic signature (reference §5.4; docs/hr-api.md, "Electronic signature"): signature types, processes and
 * signers with every state rule, a two-signer process run in order to `done` with its signed PDF parsed, refusal,
 * expiry through the runner with a moved clock, cancel in bulk, archive, send, reminders to the outbox, the
 * callback_url on a real receiver, and the signing page over plain HTTP.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { inflateSync } from 'node:zlib';
import { AdminClient } from '@atrium/client';
import { PDFDocument, PDFName, PDFRawStream } from '@cantoo/pdf-lib';
import { expectJson as json } from '../support/admin.js';
import { dialects, getToken, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { pdf } from '../support/pdf.js';
import { upload as uploadFile } from '../support/people-assist.js';
import { type Receiver, startReceiver } from '../support/receiver.js';

interface Process {
  id: string;
  state: string;
  title: string;
  name: string;
  location: string;
  expiry_date: string | null;
  file_number: string;
  is_cancelable: boolean;
  is_deletable: boolean;
  notify_on_refusal: boolean;
  notify_on_signature: boolean;
  auto_send: string;
  callback_url: string | null;
  cancellation_comment: string | null;
  signers: { id: string; first_name: string; last_name: string; state: string }[];
  sender: { id: string; first_name: string; last_name: string } | null;
  document_organizations: { id: string; name: string }[];
}

interface SignerBody {
  id: string;
  state: string;
  signing_url: string | null;
  signed_at: string | null;
  access_code: null;
  signing_order: number;
  type: string;
}

interface Mail {
  kind: string;
  to_address: string | null;
  to_name: string;
  subject: string;
  body: string;
  related_id: string | null;
}

interface ErrorBody {
  code: string;
  message: string;
  errors?: { field: string; code: string }[];
}

/** Polls until `check` holds (bounded; no timing is asserted). */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The decoded content streams of a PDF page, as text (pdf-lib writes text as hex strings). */
function pageContent(doc: PDFDocument, index: number): string {
  const page = doc.getPage(index);
  const contents = page.node.lookup(PDFName.of('Contents'));
  const streams = contents instanceof PDFRawStream ? [contents] : [];
  if (!(contents instanceof PDFRawStream) && contents && 'asArray' in contents) {
    for (const ref of (contents as unknown as { asArray(): unknown[] }).asArray()) {
      const stream = doc.context.lookup(ref as never);
      if (stream instanceof PDFRawStream) streams.push(stream);
    }
  }
  return streams
    .map((s) => {
      const filter = s.dict.get(PDFName.of('Filter'));
      const bytes = s.getContents();
      return Buffer.from(filter ? inflateSync(bytes) : bytes).toString('latin1');
    })
    .join('\n');
}

/** How pdf-lib writes a text with a standard font: WinAnsi bytes in a hex string. */
const hex = (text: string) => `<${Buffer.from(text, 'latin1').toString('hex').toUpperCase()}>`;

for (const dialect of dialects()) {
  describe(`electronic signature (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;
    let admin: AdminClient;
    let receiver: Receiver;
    let employeeId: string;
    let senderId: string;
    const original: { pages: number; bytes: Buffer } = { pages: 2, bytes: Buffer.alloc(0) };

    const callerWith =
      (token: string): HrCaller['call'] =>
      (method, path, body, headers = {}) =>
        fetch(`${server.url}/api/v2/client${path}`, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...headers,
          },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        });
    const upload = (bytes: Buffer, filename = 'contract.pdf', caller = hr) =>
      uploadFile(server, caller, bytes, filename);
    const create = async (extra: Record<string, unknown> = {}) =>
      json<Process>(
        await hr.call('POST', '/signature_processes', {
          signature_type_id: 'docusign',
          title: 'Employment contract',
          reason: 'Hiring',
          upload_id: await upload(original.bytes),
          ...extra,
        }),
        201,
      );
    const addSigner = async (processId: string, extra: Record<string, unknown> = {}) =>
      json<SignerBody>(
        await hr.call('POST', '/signers', {
          signature_process_id: processId,
          first_name: 'Ada',
          last_name: 'Lovelace',
          email_address: 'ada@example.com',
          ...extra,
        }),
        201,
      );
    const get = async (id: string) => json<Process>(await hr.call('GET', `/signature_processes/${id}`), 200);
    const signer = async (id: string) => json<SignerBody>(await hr.call('GET', `/signers/${id}`), 200);
    const start = (id: string) => hr.call('PATCH', `/signature_processes/${id}`, { state: 'signing' });
    const sign = (id: string, body: Record<string, unknown> = { name: 'Ada Lovelace' }) =>
      hr.call('POST', `/signers/${id}/sign`, body);
    const outbox = async (relatedId?: string) =>
      json<Mail[]>(await hr.call('GET', `/outbox?per_page=100${relatedId ? `&related_id=${relatedId}` : ''}`), 200);
    const row = (id: string) =>
      server.app.database.db
        .selectFrom('hr_signature_processes')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();

    before(async () => {
      server = await startServer(dialect, {
        ATRIUM_JOB_POLL_MS: '20',
        ATRIUM_RATE_LIMIT: '0',
        ATRIUM_WEBHOOK_BACKOFF_BASE_MS: '20',
        ATRIUM_WEBHOOK_BACKOFF_CAP_MS: '100',
      });
      hr = await hrCaller(server);
      other = await hrCaller(server);
      const { token } = await server.app.services.adminTokens.create('signatures', 'cli');
      admin = new AdminClient({ baseUrl: server.url, token, maxRetries: 0 });
      receiver = await startReceiver();
      original.bytes = await pdf(original.pages);
      assert.equal((await hr.call('PUT', '/organizations/paris', { name: 'Paris' })).status, 201);
      employeeId = (
        await json<{ id: string }>(
          await hr.call('POST', '/employees', {
            firstname: 'Grace',
            lastname: 'Hopper',
            email: 'grace@example.com',
            registration_references: [{ organization_id: 'paris', employee_number: 'G1' }],
          }),
          201,
        )
      ).id;
      senderId = (
        await json<{ id: string }>(
          await hr.call('POST', '/users', { firstname: 'Hedy', lastname: 'Lamarr', email: 'hedy@example.com' }),
          201,
        )
      ).id;
      assert.equal(
        (
          await hr.call('PUT', '/employee_document_types/contract', {
            label: 'Contract',
            localized_labels: [{ language_code: 'en', value: 'Contract' }],
            folder_id: 'payroll.payslips',
          })
        ).status,
        201,
      );
    });
    after(async () => {
      await receiver.close();
      await server.close();
    });

    it('lists the three signature types, pages them, and gets one', async () => {
      const res = await hr.call('GET', '/signature_types?per_page=2');
      const page = await json<{ id: string; backend_code: string; signer_can_reject: boolean }[]>(res, 200);
      assert.deepEqual(
        page.map((t) => t.id),
        ['adobesign', 'docusign'],
      );
      const next = res.headers.get('next-cursor');
      assert.ok(next);
      const rest = await json<{ id: string }[]>(
        await hr.call('GET', `/signature_types?per_page=2&cursor=${next}`),
        200,
      );
      assert.deepEqual(
        rest.map((t) => t.id),
        ['docusign_protect_and_sign'],
      );
      const one = await json<{ id: string; backend_code: string; docusign_settings: null }>(
        await hr.call('GET', '/signature_types/docusign_protect_and_sign'),
        200,
      );
      assert.equal(one.backend_code, 'docusign_protect_and_sign');
      assert.equal(one.docusign_settings, null);
      assert.equal((await hr.call('GET', '/signature_types/nope')).status, 404);
    });

    it('creates a draft from an uploaded PDF with the reference’s defaults; refuses what is not a PDF (422)', async () => {
      const made = await create({ sender_id: senderId, document_organization_ids: ['paris'] });
      assert.equal(made.state, 'draft');
      assert.equal(made.location, 'N/A');
      assert.equal(made.notify_on_refusal, true);
      assert.equal(made.notify_on_signature, false);
      assert.equal(made.auto_send, 'false');
      assert.equal(made.expiry_date, null);
      assert.equal(made.name, 'contract.pdf');
      assert.match(made.file_number, /^SP-[0-9A-F]{8}$/);
      assert.deepEqual([made.is_cancelable, made.is_deletable], [true, true]);
      assert.deepEqual(made.sender, { id: senderId, first_name: 'Hedy', last_name: 'Lamarr' });
      assert.deepEqual(made.document_organizations, [{ id: 'paris', name: 'Paris' }]);
      assert.deepEqual(made.signers, []);
      assert.deepEqual(await get(made.id), made);

      const text = await upload(Buffer.from('plain text, not a PDF'), 'notes.txt');
      const refused = await json<ErrorBody>(
        await hr.call('POST', '/signature_processes', {
          signature_type_id: 'docusign',
          title: 'T',
          reason: 'R',
          upload_id: text,
        }),
        422,
      );
      assert.deepEqual(
        refused.errors?.map((e) => [e.field, e.code]),
        [['upload_id', 'invalid_type']],
      );
      // Nothing was half-written: the upload is still unconsumed, and no process was made.
      const upload_ = await server.app.database.db
        .selectFrom('hr_uploads')
        .select('consumed_at')
        .where('id', '=', text)
        .executeTakeFirstOrThrow();
      assert.equal(upload_.consumed_at, null);

      const many = await json<ErrorBody>(
        await hr.call('POST', '/signature_processes', {
          signature_type_id: 'wet_ink',
          title: 'T',
          reason: 'R',
          upload_id: '00000000-0000-4000-8000-000000000000',
          expiry_date: '2001-01-01',
          sender_id: 'nobody',
          document_type_id: 'nope',
          document_organization_ids: ['mars'],
        }),
        422,
      );
      assert.deepEqual(many.errors?.map((e) => [e.field, e.code]).sort(), [
        ['document_organization_ids[0]', 'not_found'],
        ['document_type_id', 'not_found'],
        ['expiry_date', 'invalid'],
        ['sender_id', 'not_found'],
        ['signature_type_id', 'not_found'],
      ]);
      const missing = await json<ErrorBody>(await hr.call('POST', '/signature_processes', { title: 'T' }), 422);
      assert.ok(missing.errors?.some((e) => e.field === 'upload_id'));
    });

    it('adds, changes and removes signers of a draft only; another client sees none of it', async () => {
      const p = await create();
      const s = await addSigner(p.id, { access_code: 'secret-code', signing_order: 2 });
      assert.equal(s.state, 'pending');
      assert.equal(s.access_code, null, 'never shown');
      assert.equal(s.signing_url, null, 'no link before signing starts');
      assert.equal(s.type, 'external');
      const stored = await server.app.database.db
        .selectFrom('hr_signers')
        .select('access_code_hash')
        .where('id', '=', s.id)
        .executeTakeFirstOrThrow();
      assert.match(stored.access_code_hash ?? '', /^[0-9a-f]{64}$/, 'only its hash is kept');
      const patched = await json<SignerBody & { first_name: string }>(
        await hr.call('PATCH', `/signers/${s.id}`, { first_name: 'Augusta' }),
        200,
      );
      assert.equal(patched.first_name, 'Augusta');
      assert.equal(patched.signing_order, 2, 'PATCH keeps what it does not name');
      const put = await json<SignerBody>(
        await hr.call('PUT', `/signers/${s.id}`, { first_name: 'Ada', last_name: 'King' }),
        200,
      );
      assert.equal(put.signing_order, 1, 'PUT resets what it does not name');
      const list = await json<SignerBody[]>(await hr.call('GET', `/signers?signature_process_id=${p.id}`), 200);
      assert.deepEqual(
        list.map((x) => x.id),
        [s.id],
      );
      assert.equal((await hr.call('GET', '/signers')).status, 400, 'signature_process_id is required');
      const employeeWithout = await json<ErrorBody>(
        await hr.call('POST', '/signers', {
          signature_process_id: p.id,
          first_name: 'E',
          last_name: 'E',
          type: 'employee',
        }),
        422,
      );
      assert.deepEqual(
        employeeWithout.errors?.map((e) => [e.field, e.code]),
        [['employee_id', 'required']],
      );
      const unknownProcess = await json<ErrorBody>(
        await hr.call('POST', '/signers', {
          signature_process_id: '00000000-0000-4000-8000-000000000000',
          first_name: 'E',
          last_name: 'E',
        }),
        422,
      );
      assert.deepEqual(
        unknownProcess.errors?.map((e) => e.field),
        ['signature_process_id'],
      );

      // Tenancy: another client's process and signer are "not found".
      assert.equal((await other.call('GET', `/signature_processes/${p.id}`)).status, 404);
      assert.equal((await other.call('GET', `/signers/${s.id}`)).status, 404);
      assert.equal((await other.call('GET', `/signers?signature_process_id=${p.id}`)).status, 404);
      assert.equal((await other.call('DELETE', `/signature_processes/${p.id}`)).status, 404);

      assert.equal((await start(p.id)).status, 200);
      const late = await json<ErrorBody>(await hr.call('PATCH', `/signers/${s.id}`, { first_name: 'X' }), 400);
      assert.match(late.message, /only while the process is a draft/);
      assert.equal((await hr.call('DELETE', `/signers/${s.id}`)).status, 400);
      assert.equal(
        (await hr.call('POST', '/signers', { signature_process_id: p.id, first_name: 'L', last_name: 'L' })).status,
        400,
      );
      const draft = await create();
      const gone = await addSigner(draft.id);
      assert.equal((await hr.call('DELETE', `/signers/${gone.id}`)).status, 204);
      assert.equal((await hr.call('GET', `/signers/${gone.id}`)).status, 404);
    });

    it('runs two signers in order through the API extension to done, with the signed PDF’s blocks and audit page', async () => {
      const p = await create({
        sender_id: senderId,
        notify_on_signature: true,
        callback_url: `${receiver.url}/done`,
        title: 'Two signers',
      });
      const first = await addSigner(p.id, { first_name: 'Ada', last_name: 'Lovelace', signing_order: 1 });
      const second = await addSigner(p.id, {
        first_name: 'Grace',
        last_name: 'Hopper',
        email_address: 'grace@example.com',
        signing_order: 2,
        type: 'employee',
        employee_id: employeeId,
      });
      const needsSigner = await create();
      const lonely = await json<ErrorBody>(await start(needsSigner.id), 400);
      assert.match(lonely.message, /needs a signer/);

      const started = await json<Process>(await start(p.id), 200);
      assert.equal(started.state, 'signing');
      const today = new Date();
      const expected = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 14));
      assert.equal(started.expiry_date, expected.toISOString().slice(0, 10), 'two weeks by default');
      assert.deepEqual(
        started.signers.map((s) => s.state),
        ['in_progress', 'pending'],
      );
      const firstNow = await signer(first.id);
      assert.match(firstNow.signing_url ?? '', /^http:\/\/127\.0\.0\.1:\d+\/api\/v2\/client\/signing\/[^/]+$/);
      const [invitation] = await outbox(first.id);
      assert.equal(invitation?.kind, 'signature.invitation');
      assert.equal(invitation?.to_address, 'ada@example.com');
      assert.ok(invitation?.body.includes(firstNow.signing_url ?? '<none>'), 'the invitation carries the link');
      assert.deepEqual(await outbox(second.id), [], 'the second signer is not invited yet');
      // The document is fixed once signing has started.
      const fixed = await json<ErrorBody>(
        await hr.call('PATCH', `/signature_processes/${p.id}`, { title: 'Changed' }),
        400,
      );
      assert.match(fixed.message, /only in draft/);
      const back = await json<ErrorBody>(
        await hr.call('PATCH', `/signature_processes/${p.id}`, { state: 'draft' }),
        400,
      );
      assert.match(back.message, /cannot go from signing to draft/);
      assert.equal(
        (await hr.call('DELETE', `/signature_processes/${p.id}`)).status,
        400,
        'not deletable while signing',
      );

      const early = await json<ErrorBody>(await sign(second.id), 400);
      assert.match(early.message, /not this signer’s turn/);
      assert.equal((await hr.call('POST', `/signers/${second.id}/remind`)).status, 400);

      const signed1 = await json<SignerBody>(await sign(first.id, { name: 'A. Lovelace' }), 200);
      assert.equal(signed1.state, 'signed');
      assert.ok(signed1.signed_at);
      assert.equal(signed1.signing_url, null);
      assert.equal((await sign(first.id)).status, 400, 'signing twice is refused');
      assert.equal((await signer(second.id)).state, 'in_progress');
      assert.equal((await outbox(second.id))[0]?.kind, 'signature.invitation');
      assert.equal((await outbox(p.id))[0]?.kind, 'signature.signed', 'the sender is told (notify_on_signature)');
      assert.equal((await hr.call('POST', `/signers/${second.id}/remind`)).status, 204);
      assert.equal((await outbox(second.id))[0]?.kind, 'signature.reminder');
      const mixed = await json<ErrorBody>(
        await hr.call('POST', '/signers/remind', { signer_ids: [second.id, first.id] }),
        400,
      );
      assert.match(mixed.message, /Nobody was reminded/);
      assert.equal((await outbox(second.id)).length, 2, 'all or nothing: no reminder was recorded');

      // The first signature's block is on the current PDF once the runner has stamped it.
      await until(async () => (await row(p.id)).signed_sha256 !== null, 'the first stamp');
      const signed2 = await json<SignerBody>(await sign(second.id, { name: 'Grace Hopper' }), 200);
      assert.equal(signed2.state, 'signed');
      await until(async () => (await get(p.id)).state === 'done', 'the process to be done');
      const done = await get(p.id);
      assert.deepEqual([done.is_cancelable, done.is_deletable], [false, true]);

      const file = await hr.call('GET', `/signature_processes/${p.id}/file`);
      assert.equal(file.status, 200);
      assert.equal(file.headers.get('content-type'), 'application/pdf');
      const bytes = Buffer.from(await file.arrayBuffer());
      const doc = await PDFDocument.load(bytes);
      assert.equal(doc.getPageCount(), original.pages + 1, 'the original pages and the audit page');
      const lastOriginal = pageContent(doc, original.pages - 1);
      assert.ok(lastOriginal.includes(hex('Signed electronically by A. Lovelace')), 'the first block');
      assert.ok(lastOriginal.includes(hex('Signed electronically by Grace Hopper')), 'the second block');
      const audit = pageContent(doc, original.pages);
      assert.ok(audit.includes(hex('Signature audit trail')));
      assert.ok(audit.includes(hex('Signer 1: Ada Lovelace')));
      assert.ok(audit.includes(hex('Signer 2: Grace Hopper')));
      assert.ok(audit.includes(hex(`File number: ${p.file_number}`)));
      const originalRow = await row(p.id);
      assert.notEqual(originalRow.signed_sha256, originalRow.sha256);

      // The callback came, with the process as GET shows it.
      const [callback] = await receiver.waitFor(1);
      const called = JSON.parse(callback?.body ?? '{}') as Process;
      assert.equal(called.id, p.id);
      assert.equal(called.state, 'done');
      // The events (and so the webhooks) of the run.
      const events = await json<{ type: string }[]>(
        await hr.call('GET', `/events?resource_type=signature&per_page=100`),
        200,
      );
      for (const type of ['signature.created', 'signature.signing', 'signature.signed', 'signature.done']) {
        assert.ok(
          events.some((e) => e.type === type),
          type,
        );
      }

      // Archive: the signed PDF filed for the employee signer, once.
      const noType = await json<ErrorBody>(await hr.call('POST', `/signature_processes/${p.id}/archive`), 400);
      assert.match(noType.message, /document_type_id/);
      // The process is done: its document type cannot be set any more, so a process made with one is archived.
      const archived = await create({ document_type_id: 'contract', title: 'To archive' });
      const employeeSigner = await addSigner(archived.id, { type: 'employee', employee_id: employeeId });
      assert.equal((await start(archived.id)).status, 200);
      assert.equal((await hr.call('POST', `/signature_processes/${archived.id}/archive`)).status, 400, 'not done yet');
      assert.equal((await sign(employeeSigner.id)).status, 200);
      await until(async () => (await get(archived.id)).state === 'done', 'the second process to be done');
      assert.equal((await hr.call('POST', `/signature_processes/${archived.id}/archive`)).status, 204);
      assert.equal(
        (await hr.call('POST', `/signature_processes/${archived.id}/archive`)).status,
        204,
        'again: nothing',
      );
      const docs = await json<{ id: string; origin: string; name: string }[]>(
        await hr.call('GET', `/employee_documents?employee_id=${employeeId}`),
        200,
      );
      assert.deepEqual(
        docs.map((d) => [d.origin, d.name]),
        [['signature', 'contract.pdf']],
      );
      const stored = await row(archived.id);
      const filed = await server.app.database.db
        .selectFrom('hr_documents')
        .select('sha256')
        .where('id', '=', docs[0]?.id as string)
        .executeTakeFirstOrThrow();
      assert.equal(filed.sha256, stored.signed_sha256, 'the signed PDF is what is filed');

      // Send: once done, to every signer, through the outbox.
      assert.equal((await hr.call('POST', `/signature_processes/${p.id}/send`)).status, 204);
      const sent = (await outbox()).filter((m) => m.kind === 'signature.signed_document');
      assert.deepEqual(sent.map((m) => m.related_id).sort(), [first.id, second.id].sort());
      assert.equal((await hr.call('POST', `/signature_processes/${needsSigner.id}/send`)).status, 400);

      // Done is deletable; its blobs go with it unless something else holds them.
      assert.equal((await hr.call('DELETE', `/signature_processes/${p.id}`)).status, 204);
      assert.equal((await hr.call('GET', `/signature_processes/${p.id}`)).status, 404);
      const blob = await server.app.database.db
        .selectFrom('blobs')
        .select('sha256')
        .where('sha256', '=', originalRow.signed_sha256 as string)
        .executeTakeFirst();
      assert.equal(blob, undefined, 'the signed PDF nothing else holds is deleted');
    });

    it('asks for the access code, and a refusal rejects the process and calls back', async () => {
      const p = await create({ callback_url: `${receiver.url}/refused`, sender_id: senderId });
      const s = await addSigner(p.id, { access_code: '4242' });
      assert.equal((await start(p.id)).status, 200);
      const without = await json<ErrorBody>(await sign(s.id), 422);
      assert.deepEqual(
        without.errors?.map((e) => [e.field, e.code]),
        [['access_code', 'invalid']],
      );
      assert.equal((await sign(s.id, { name: 'Ada', access_code: '0000' })).status, 422);
      assert.equal((await signer(s.id)).state, 'in_progress', 'a wrong code changes nothing');
      const before = receiver.received.length;
      const refused = await json<SignerBody>(
        await hr.call('POST', `/signers/${s.id}/refuse`, { comment: 'Wrong salary', access_code: '4242' }),
        200,
      );
      assert.equal(refused.state, 'rejected');
      const after = await get(p.id);
      assert.equal(after.state, 'rejected');
      assert.deepEqual([after.is_cancelable, after.is_deletable], [false, true]);
      assert.equal((await outbox(p.id))[0]?.kind, 'signature.refused', 'the sender is told (notify_on_refusal)');
      const calls = await receiver.waitFor(before + 1);
      const body = JSON.parse(calls[calls.length - 1]?.body ?? '{}') as Process;
      assert.deepEqual([body.id, body.state], [p.id, 'rejected']);
      assert.equal((await sign(s.id, { name: 'Ada', access_code: '4242' })).status, 400, 'nothing to sign any more');
    });

    it('locks a signer after 5 wrong access codes until the sender reminds them (issue 51)', async () => {
      const p = await create({ sender_id: senderId });
      const s = await addSigner(p.id, { access_code: '4242' });
      assert.equal((await start(p.id)).status, 200);
      for (let i = 1; i <= 4; i++) {
        const wrong = await json<ErrorBody>(await sign(s.id, { name: 'Ada', access_code: `000${i}` }), 422);
        assert.deepEqual(
          wrong.errors?.map((e) => [e.field, e.code]),
          [['access_code', 'invalid']],
          `guess ${i}`,
        );
      }
      const fifth = await json<ErrorBody>(await sign(s.id, { name: 'Ada', access_code: '0005' }), 403);
      assert.equal(fifth.code, 'signer_locked', 'the fifth wrong code locks');
      const row = await server.app.database.db
        .selectFrom('hr_signer_code_attempts')
        .select(['failures', 'locked_at'])
        .where('signer_id', '=', s.id)
        .where('client_id', '=', hr.creds.client_id) // tenant-by-hand: the test reads the row itself
        .executeTakeFirstOrThrow();
      assert.equal(Number(row.failures), 5);
      assert.notEqual(row.locked_at, null);
      // Locked: even the right code is refused, and so is a refusal.
      assert.equal(
        (await json<ErrorBody>(await sign(s.id, { name: 'Ada', access_code: '4242' }), 403)).code,
        'signer_locked',
      );
      const refuse = await hr.call('POST', `/signers/${s.id}/refuse`, { comment: 'No', access_code: '4242' });
      assert.equal(refuse.status, 403);
      assert.equal((await signer(s.id)).state, 'in_progress');
      const events = await json<{ type: string; data: { id: string } }[]>(
        await hr.call('GET', '/events?resource_type=signer&action=locked'),
        200,
      );
      assert.deepEqual(
        events.map((e) => [e.type, e.data.id]),
        [['signer.locked', s.id]],
        'one signer.locked event',
      );
      // The sender reminds them (re-invites): unlocked, and the right code signs.
      assert.equal((await hr.call('POST', `/signers/${s.id}/remind`)).status, 204);
      assert.equal(
        (await json<SignerBody>(await sign(s.id, { name: 'Ada', access_code: '4242' }), 200)).state,
        'signed',
      );
    });

    it('expires through the runner when the client’s clock passes expiry_date, and calls back', async () => {
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      const p = await create({ expiry_date: tomorrow, callback_url: `${receiver.url}/expired` });
      const s = await addSigner(p.id);
      assert.equal((await start(p.id)).status, 200);
      const tenant = `hr:${hr.creds.client_id}`;
      const before = receiver.received.length;
      const original_ = hr;
      try {
        await admin.clock.advance(tenant, { days: 3 });
        // The client's tokens live in its time too: a new one.
        hr = { ...hr, token: await getToken(server, hr.creds) };
        hr.call = callerWith(hr.token);
        // Seen as expired at once, and written so by the runner.
        assert.equal((await get(p.id)).state, 'expired');
        const expired = await json<Process[]>(
          await hr.call('GET', '/signature_processes?state=expired&per_page=100'),
          200,
        );
        assert.ok(
          expired.some((x) => x.id === p.id),
          'the state filter sees it',
        );
        assert.equal((await sign(s.id)).status, 400, 'an expired process cannot be signed');
        await until(async () => (await row(p.id)).state === 'expired', 'the runner to expire it');
        const calls = await receiver.waitFor(before + 1);
        const body = JSON.parse(calls[calls.length - 1]?.body ?? '{}') as Process;
        assert.deepEqual([body.id, body.state], [p.id, 'expired']);
        assert.equal((await hr.call('DELETE', `/signature_processes/${p.id}`)).status, 204, 'expired is deletable');
      } finally {
        await admin.clock.reset(tenant);
        hr = original_;
      }
    });

    it('cancels in bulk all or nothing; lists with page, X-Total-Count and filters', async () => {
      const a = await create({ title: 'Bulk A' });
      const b = await create({ title: 'Bulk B' });
      const done = await create({ title: 'Bulk C' });
      const s = await addSigner(done.id, { first_name: 'Zelda', last_name: 'Fitzgerald' });
      assert.equal((await start(done.id)).status, 200);
      assert.equal((await sign(s.id)).status, 200);
      await until(async () => (await get(done.id)).state === 'done', 'done');

      const refused = await json<ErrorBody>(
        await hr.call('POST', '/signature_processes/cancel', {
          signature_ids: [a.id, done.id],
          cancellation_comment: 'No longer needed',
        }),
        400,
      );
      assert.match(refused.message, new RegExp(`${done.id} \\(done\\)`));
      assert.equal((await get(a.id)).state, 'draft', 'none was canceled');
      const canceled = await json<Process[]>(
        await hr.call('POST', '/signature_processes/cancel', {
          signature_ids: [a.id, b.id],
          cancellation_comment: 'No longer needed',
        }),
        200,
      );
      assert.deepEqual(
        canceled.map((p) => [p.id, p.state, p.cancellation_comment]),
        [
          [a.id, 'canceled', 'No longer needed'],
          [b.id, 'canceled', 'No longer needed'],
        ],
      );
      const unknown = await hr.call('POST', '/signature_processes/cancel', {
        signature_ids: ['00000000-0000-4000-8000-000000000000'],
      });
      assert.equal(unknown.status, 400);

      const page1 = await hr.call('GET', '/signature_processes?per_page=2&page=1&sort=title&q=Bulk');
      assert.equal(page1.headers.get('x-total-count'), '3');
      assert.deepEqual(
        (await json<Process[]>(page1, 200)).map((p) => p.title),
        ['Bulk A', 'Bulk B'],
      );
      const page2 = await hr.call('GET', '/signature_processes?per_page=2&page=2&sort=title&q=Bulk');
      assert.deepEqual(
        (await json<Process[]>(page2, 200)).map((p) => p.title),
        ['Bulk C'],
      );
      const bySigner = await json<Process[]>(await hr.call('GET', '/signature_processes?q=Fitzgerald'), 200);
      assert.deepEqual(
        bySigner.map((p) => p.id),
        [done.id],
      );
      const byState = await hr.call('GET', '/signature_processes?state=canceled,done&q=Bulk');
      assert.equal(byState.headers.get('x-total-count'), '3');
      const bad = await json<ErrorBody>(await hr.call('GET', '/signature_processes?state=sleeping'), 400);
      assert.match(bad.message, /sleeping is not a state/);
      const other_ = await other.call('GET', '/signature_processes');
      assert.equal(other_.headers.get('x-total-count'), '0', 'another client has none');
    });

    it('serves the signing page: the document, sign by typing a name, the state after; a bad link is a 404 page', async () => {
      const p = await create({ title: 'Signed in a page' });
      const s = await addSigner(p.id, { first_name: 'Rosalind', last_name: 'Franklin' });
      assert.equal((await start(p.id)).status, 200);
      const url = (await signer(s.id)).signing_url as string;
      const pageRes = await fetch(url);
      assert.equal(pageRes.status, 200);
      assert.match(pageRes.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(pageRes.headers.get('content-security-policy') ?? '', /default-src 'none'/);
      const html = await pageRes.text();
      assert.match(html, /Signed in a page/);
      assert.match(html, /<form[^>]+action="[^"]+\/sign"/);
      assert.match(html, /<form[^>]+action="[^"]+\/refuse"/);
      const documentRes = await fetch(`${url}/document`);
      assert.equal(documentRes.status, 200);
      assert.equal(Buffer.compare(Buffer.from(await documentRes.arrayBuffer()), original.bytes), 0);

      const empty = await fetch(`${url}/sign`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'name=',
        redirect: 'manual',
      });
      assert.equal(empty.status, 422);
      assert.match(await empty.text(), /Type your name to sign/);
      const posted = await fetch(`${url}/sign`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ name: 'Rosalind E. Franklin' }).toString(),
        redirect: 'manual',
      });
      assert.equal(posted.status, 303);
      const after = await (await fetch(url)).text();
      assert.match(after, /You signed this document on .* as “Rosalind E\. Franklin”/);
      assert.equal((await signer(s.id)).state, 'signed');

      const token = url.split('/').pop() as string;
      const altered = `${token.slice(0, -2)}${token.endsWith('A') ? 'BB' : 'AA'}`;
      const bad = await fetch(url.replace(token, altered));
      assert.equal(bad.status, 404);
      assert.match(await bad.text(), /not valid/);
      // A link names its client: another client's token for this signer id does not open it.
      const foreign = url.replace(
        token,
        `${Buffer.from(other.creds.client_id).toString('base64url')}.${token.split('.').slice(1).join('.')}`,
      );
      assert.equal((await fetch(foreign)).status, 404);
    });
  });
}
