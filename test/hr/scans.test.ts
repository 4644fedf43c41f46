/**
 * Antivirus-scanned uploads (reference §3c.1; docs/hr-api.md, "Antivirus scans"): `POST /document/upload`,
 * `POST /document/upload/async`, `POST /file/upload/sync|async` and `GET /file/scan/{scan_id}/status` — clean files
 * become uploads, the EICAR test file never does; asynchronous scans go pending → clean through the job runner and
 * call `X-Callback-Url` back; the `X-Client-Id` rules; tenancy. Also `POST /users/{id}/invite` (the outbox) and
 * `GET /redirection_urls`.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { expectJson as json } from '../support/admin.js';
import { sdkHr } from '../support/client.js';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { pdf } from '../support/pdf.js';
import { type Receiver, startReceiver } from '../support/receiver.js';

const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';

interface ErrorBody {
  code: string;
  message: string;
  errors?: { field: string; code: string }[];
}

for (const dialect of dialects()) {
  describe(`antivirus scans, invitations and redirection URLs (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;
    let receiver: Receiver;

    /** A raw-body upload to `path`, with the caller's token and `headers`. */
    const send = (path: string, data: string | Buffer, headers: Record<string, string> = {}, caller = hr) =>
      fetch(`${server.url}/api/v2/client${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${caller.token}`,
          'content-type': 'application/octet-stream',
          'content-disposition': 'attachment; filename="report.txt"',
          ...headers,
        },
        body: data,
      });
    const clientOf = (caller: HrCaller) => ({ 'x-client-id': caller.creds.client_id });
    const status = (scanId: string, caller = hr, headers: Record<string, string> = clientOf(caller)) =>
      caller.call('GET', `/file/scan/${scanId}/status`, undefined, headers);
    const db = () => server.app.database.db;
    const scanRow = (id: string) =>
      db().selectFrom('hr_scans').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const uploadRow = (id: string) => db().selectFrom('hr_uploads').selectAll().where('id', '=', id).executeTakeFirst();
    const blobRow = (sha256: string) =>
      db().selectFrom('blobs').select('sha256').where('sha256', '=', sha256).executeTakeFirst();
    const countScans = async () =>
      Number(
        (
          await db()
            .selectFrom('hr_scans')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    /** Uses the file as an inbox item's document: 201, or 422 naming the file id as unknown. */
    const useFile = (fileId: string, caller = hr) =>
      caller.call('POST', '/inbox_items', {
        title: 'Scanned',
        type: 'private',
        options: { send_confirmation_email_to_creator: false },
        uploaded_files: [{ filename: 'report.txt', file_id: fileId }],
      });
    const refusedAsUnknown = async (fileId: string) => {
      const body = await json<ErrorBody>(await useFile(fileId), 422);
      assert.deepEqual(body.errors, [
        { field: 'uploaded_files[0].file_id', code: 'not_found', message: 'No upload has this id.' },
      ]);
    };
    const until = async <T>(probe: () => Promise<T | undefined>, what: string): Promise<T> => {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const found = await probe();
        if (found !== undefined) return found;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };

    before(async () => {
      server = await startServer(dialect, {
        ATRIUM_JOB_POLL_MS: '20',
        ATRIUM_RATE_LIMIT: '0',
        ATRIUM_WEBHOOK_BACKOFF_BASE_MS: '20',
        ATRIUM_WEBHOOK_BACKOFF_CAP_MS: '100',
      });
      hr = await hrCaller(server);
      other = await hrCaller(server);
      receiver = await startReceiver();
    });
    after(async () => {
      await receiver.close();
      await server.close();
    });

    it('POST /document/upload: a clean file is an upload, usable as a document', async () => {
      const form = new FormData();
      form.append('file', new Blob(['quarterly figures']), 'figures.txt');
      const res = await fetch(`${server.url}/api/v2/client/document/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${hr.token}` },
        body: form,
      });
      const body = await json<{ filename: string; file_id: string; scan_status: string }>(res, 201);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(Object.keys(body).sort(), ['file_id', 'filename', 'scan_status']);
      assert.equal(body.filename, 'figures.txt');
      assert.equal(body.scan_status, 'clean');
      const upload = await uploadRow(body.file_id);
      assert.ok(upload, 'the clean file is an upload');
      assert.equal(upload.client_id, hr.creds.client_id);
      assert.equal(upload.sha256, createHash('sha256').update('quarterly figures').digest('hex'));
      const scan = await db()
        .selectFrom('hr_scans')
        .selectAll()
        .where('file_id', '=', body.file_id)
        .executeTakeFirstOrThrow();
      assert.equal(scan.status, 'clean');
      assert.equal(scan.source, 'document');
      assert.notEqual(scan.scanned_at, null);
      assert.equal((await useFile(body.file_id)).status, 201);
    });

    it('POST /document/upload: the EICAR test file is infected, never an upload, and its bytes are gone', async () => {
      for (const content of [EICAR, `${EICAR}\r\n`, `${EICAR} and more`]) {
        const body = await json<{ file_id: string; scan_status: string }>(await send('/document/upload', content), 201);
        assert.equal(body.scan_status, 'infected');
        assert.equal(await uploadRow(body.file_id), undefined, 'no upload for an infected file');
        const sha256 = createHash('sha256').update(content).digest('hex');
        assert.equal(await blobRow(sha256), undefined, 'the infected bytes are deleted');
        await refusedAsUnknown(body.file_id);
      }
      // The EICAR string anywhere but at the start is not the test file.
      const later = await json<{ scan_status: string }>(await send('/document/upload', ` ${EICAR}`), 201);
      assert.equal(later.scan_status, 'clean');
    });

    it('POST /file/upload/sync: a clean file answers the whole upload, kept retention_period seconds', async () => {
      const res = await send('/file/upload/sync?filename=named%20by%20query.txt', 'payroll export', {
        ...clientOf(hr),
        'x-file-parameters': JSON.stringify({ retention_period: 7200, archiving_profile: 'LOCAL' }),
      });
      const body = await json<Record<string, unknown>>(res, 201);
      assert.deepEqual(Object.keys(body).sort(), [
        'content_type',
        'creation_date',
        'expires_at',
        'filename',
        'id',
        'page_count',
        'retention_period',
        'scan_id',
        'scan_status',
      ]);
      assert.equal(body.scan_status, 'clean');
      assert.equal(body.filename, 'named by query.txt');
      assert.equal(body.retention_period, '7200');
      assert.equal(body.page_count, null);
      assert.equal(Date.parse(body.expires_at as string) - Date.parse(body.creation_date as string), 7200 * 1000);
      const upload = await uploadRow(body.id as string);
      assert.equal(upload?.filename, 'named by query.txt');
      assert.equal(Number(upload?.expires_at) - Number(upload?.created_at), 7200 * 1000);
      const scan = await scanRow(body.scan_id as string);
      assert.equal(scan.source, 'file');
      assert.equal(scan.file_id, body.id);
      // The default retention is 3600 seconds.
      const plain = await json<{ retention_period: string }>(await send('/file/upload/sync', 'x', clientOf(hr)), 201);
      assert.equal(plain.retention_period, '3600');
    });

    it('POST /file/upload/sync: a clean PDF answers its pages, kept with the upload', async () => {
      const body = await json<{ id: string; content_type: string; page_count: number | null }>(
        await send('/file/upload/sync?filename=three.pdf', await pdf(3), clientOf(hr)),
        201,
      );
      assert.equal(body.content_type, 'application/pdf');
      assert.equal(body.page_count, 3);
      assert.equal(Number((await uploadRow(body.id))?.page_count), 3);
    });

    it('POST /file/upload/sync: an infected file answers only scan_id and scan_status', async () => {
      const body = await json<Record<string, unknown>>(await send('/file/upload/sync', EICAR, clientOf(hr)), 201);
      assert.deepEqual(Object.keys(body).sort(), ['scan_id', 'scan_status']);
      assert.equal(body.scan_status, 'infected');
      const scan = await scanRow(body.scan_id as string);
      assert.equal(scan.status, 'infected');
      assert.equal(await uploadRow(scan.file_id), undefined);
      const read = await json<Record<string, unknown>>(await status(body.scan_id as string), 200);
      assert.equal(read.status, 'infected');
      assert.equal(read.saeFileId, scan.file_id);
      assert.equal('nextPing' in read, false);
    });

    it('the /file/* calls need X-Client-Id, the token’s own client (400), and valid X-file-parameters', async () => {
      const before = await countScans();
      const missing = await json<ErrorBody>(await send('/file/upload/sync', 'data'), 400);
      assert.equal(missing.code, 'invalid_request');
      assert.deepEqual(missing.errors?.[0] && { field: missing.errors[0].field, code: missing.errors[0].code }, {
        field: 'X-Client-Id',
        code: 'required',
      });
      assert.equal((await send('/file/upload/async', 'data')).status, 400);
      assert.equal((await send('/file/upload/sync', 'data', clientOf(other))).status, 400);
      const scanned = await json<{ scan_id: string }>(await send('/file/upload/sync', 'data', clientOf(hr)), 201);
      assert.equal((await status(scanned.scan_id, hr, {})).status, 400);
      for (const parameters of ['not json', '{"retention_period":-1}', '{"archiving_profile":"TAPE"}', '[]']) {
        const res = await send('/file/upload/sync', 'data', { ...clientOf(hr), 'x-file-parameters': parameters });
        assert.equal((await json<ErrorBody>(res, 400)).code, 'invalid_request', parameters);
      }
      const badCallback = await send('/file/upload/async', 'data', { ...clientOf(hr), 'x-callback-url': 'ftp://x' });
      assert.equal((await json<ErrorBody>(badCallback, 400)).code, 'invalid_request');
      assert.equal(await countScans(), before + 1, 'only the valid call scanned a file');
    });

    it('POST /file/upload/async: pending until the runner scans it, then clean, and the callback is POSTed', async () => {
      // With the runner stopped the scan stays pending: its job waits in the database (as across a restart).
      await server.app.services.jobs.stop();
      let res: Response;
      let body: Record<string, unknown>;
      try {
        res = await send('/file/upload/async', 'contract draft', {
          ...clientOf(hr),
          'x-callback-url': `${receiver.url}/scans`,
        });
        body = await json<Record<string, unknown>>(res, 201);
        assert.deepEqual(Object.keys(body).sort(), ['filename', 'next_ping', 'sae_file_id', 'scan_id', 'scan_status']);
        assert.equal(body.scan_status, 'pending');
        assert.equal(body.next_ping, 5);
        assert.equal(body.filename, 'report.txt');
        const pending = await json<Record<string, unknown>>(await status(body.scan_id as string), 200);
        assert.deepEqual(pending, {
          scanId: body.scan_id,
          saeFileId: body.sae_file_id,
          status: 'pending',
          message: 'The scan is in progress.',
          nextPing: 5,
        });
        assert.equal((await scanRow(body.scan_id as string)).status, 'pending');
        assert.equal(await uploadRow(body.sae_file_id as string), undefined, 'no upload while pending');
        await refusedAsUnknown(body.sae_file_id as string);
        const job = await db()
          .selectFrom('jobs')
          .select(['queue', 'status'])
          .where('queue', '=', 'file_scan')
          .where('payload', 'like', `%${body.scan_id as string}%`)
          .executeTakeFirstOrThrow();
        assert.equal(job.status, 'pending');
      } finally {
        server.app.services.jobs.start();
      }
      const calls = await receiver.waitFor(1);
      const call = calls[0];
      assert.ok(call);
      assert.match(call.headers['content-type'] ?? '', /^application\/json/);
      const done = JSON.parse(call.body) as Record<string, unknown>;
      assert.deepEqual(done, {
        scanId: body.scan_id,
        saeFileId: body.sae_file_id,
        status: 'clean',
        message: 'No threat found: the file is an upload.',
      });
      assert.deepEqual(await json(await status(body.scan_id as string), 200), done);
      const upload = await uploadRow(body.sae_file_id as string);
      assert.equal(upload?.sha256, createHash('sha256').update('contract draft').digest('hex'));
      assert.equal((await useFile(body.sae_file_id as string)).status, 201);
    });

    it('POST /document/upload/async: an infected file ends infected, with its callback', async () => {
      const before = receiver.received.length;
      const body = await json<{ filename: string; file_id: string; scan_id: string }>(
        await send('/document/upload/async', EICAR, { 'x-callback-url': `${receiver.url}/documents` }),
        201,
      );
      assert.deepEqual(Object.keys(body).sort(), ['file_id', 'filename', 'scan_id']);
      const calls = await receiver.waitFor(before + 1);
      const done = JSON.parse(calls[before]?.body ?? '{}') as { status: string; saeFileId: string };
      assert.equal(done.status, 'infected');
      assert.equal(done.saeFileId, body.file_id);
      const read = await until(async () => {
        const r = await json<{ status: string }>(await status(body.scan_id), 200);
        return r.status === 'pending' ? undefined : r;
      }, 'the scan');
      assert.equal(read.status, 'infected');
      assert.equal(await uploadRow(body.file_id), undefined);
      await refusedAsUnknown(body.file_id);
    });

    it('GET /file/scan/{scan_id}/status: 404 for an unknown scan and for another client’s', async () => {
      const unknown = await json<ErrorBody>(await status('00000000-0000-4000-8000-000000000000'), 404);
      assert.equal(unknown.code, 'not_found');
      assert.equal((await json<ErrorBody>(await status('not-a-scan-id'), 404)).code, 'not_found');
      const mine = await json<{ scan_id: string }>(await send('/file/upload/sync', 'mine', clientOf(hr)), 201);
      const theirs = await json<ErrorBody>(await status(mine.scan_id, other), 404);
      assert.equal(theirs.code, 'not_found');
      assert.equal((await status(mine.scan_id)).status, 200);
    });

    it('the SDK: hr.scans sends X-Client-Id and X-file-parameters, hr.users.invite, hr.redirectionUrls', async () => {
      const { hr: sdk } = await sdkHr(server);
      const clean = await sdk.scans.uploadSync({
        file: 'sdk',
        filename: 's.txt',
        fileParameters: { retention_period: 60 },
      });
      assert.equal(clean.scan_status, 'clean');
      assert.equal(clean.retention_period, '60');
      const pending = await sdk.scans.uploadAsync({ file: EICAR, filename: 'eicar.com' });
      assert.equal(pending.scan_status, 'pending');
      const done = await until(async () => {
        const read = await sdk.scans.status(pending.scan_id);
        return read.status === 'pending' ? undefined : read;
      }, 'the SDK’s scan');
      assert.equal(done.status, 'infected');
      assert.equal((await sdk.scans.uploadDocument({ file: 'd', filename: 'd.txt' })).scan_status, 'clean');
      const user = await sdk.users.create({ firstname: 'Sdk', lastname: 'User', email: 'sdk@example.com' });
      assert.equal(await sdk.users.invite(user.id), undefined);
      const mails = await sdk.outbox.list({ kind: 'user.invitation' }).toArray();
      assert.deepEqual(
        mails.map((m) => m.related_id),
        [user.id],
      );
      assert.equal(
        (await sdk.redirectionUrls.retrieve())['employee_space/employee_root_folder_url'],
        `${server.url}/api/v2/client/employee_folders`,
      );
    });

    it('a read-only application may not upload, scan or invite (403), and nothing is stored', async () => {
      const reader = await hrCaller(server, { readOnly: true });
      const before = await countScans();
      for (const path of ['/document/upload', '/document/upload/async', '/file/upload/sync', '/file/upload/async']) {
        const res = await send(path, 'data', clientOf(reader), reader);
        assert.equal((await json<ErrorBody>(res, 403)).code, 'insufficient_scope', path);
      }
      assert.equal(await countScans(), before);
      const invite = await reader.call('POST', '/users/00000000-0000-4000-8000-000000000000/invite');
      assert.equal((await json<ErrorBody>(invite, 403)).code, 'insufficient_scope');
    });

    it('POST /users/{id}/invite: 201 without a body, the activation mail in the outbox; 404 across tenants', async () => {
      const user = await json<{ id: string }>(
        await hr.call('POST', '/users', { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.com' }),
        201,
      );
      const res = await hr.call('POST', `/users/${user.id}/invite`);
      assert.equal(res.status, 201);
      assert.equal(await res.text(), '');
      const mails = await json<Record<string, unknown>[]>(await hr.call('GET', '/outbox?kind=user.invitation'), 200);
      assert.equal(mails.length, 1);
      assert.equal(mails[0]?.to_address, 'ada@example.com');
      assert.equal(mails[0]?.to_name, 'Ada Lovelace');
      assert.equal(mails[0]?.related_id, user.id);
      assert.equal(mails[0]?.subject, 'Activate your account');
      const row = await db()
        .selectFrom('hr_outbox')
        .select(['client_id', 'kind'])
        .where('related_id', '=', user.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(row, { client_id: hr.creds.client_id, kind: 'user.invitation' });
      // Another client's user is unknown here, and nothing is recorded for either client.
      assert.equal(
        (await json<ErrorBody>(await other.call('POST', `/users/${user.id}/invite`), 404)).code,
        'not_found',
      );
      assert.deepEqual(await json(await other.call('GET', '/outbox?kind=user.invitation'), 200), []);
      assert.equal((await hr.call('POST', '/users/00000000-0000-4000-8000-000000000000/invite')).status, 404);
      assert.equal((await json<unknown[]>(await hr.call('GET', '/outbox?kind=user.invitation'), 200)).length, 1);
    });

    it('GET /redirection_urls: URLs of this server’s client API, with an employee’s and a document type’s', async () => {
      const api = `${server.url}/api/v2/client`;
      assert.deepEqual(await json(await hr.call('GET', '/redirection_urls'), 200), {
        'employee_space/employee_root_folder_url': `${api}/employee_folders`,
        'document/employee_document_upload': `${api}/employee_documents`,
      });
      assert.equal((await hr.call('PUT', '/organizations/paris', { name: 'Paris' })).status, 201);
      const employee = await json<{ id: string }>(
        await hr.call('POST', '/employees', {
          firstname: 'Grace',
          lastname: 'Hopper',
          email: 'grace@example.com',
          registration_references: [{ organization_id: 'paris', employee_number: 'G1' }],
        }),
        201,
      );
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
      assert.equal(
        (
          await hr.call('PUT', '/company_document_types/handbook', {
            localized_labels: [{ language_code: 'en', value: 'Handbook' }],
            folder_id: 'policies.handbooks',
            expiry_date_policy_type: 'no_limit',
          })
        ).status,
        201,
      );
      const both = await json<Record<string, string>>(
        await hr.call('GET', `/redirection_urls?employee_id=${employee.id}&doctype_id=contract`),
        200,
      );
      assert.deepEqual(both, {
        'employee_space/employee_root_folder_url': `${api}/employee_folders`,
        'document/employee_document_upload': `${api}/employee_documents`,
        'account/employee_root_folder_url': `${api}/employee_documents?employee_id=${employee.id}`,
        'employee_space/employee_folder': `${api}/employee_documents?employee_id=${employee.id}&document_type_id=contract`,
      });
      const company = await json<Record<string, string>>(
        await hr.call('GET', '/redirection_urls?doctype_id=handbook'),
        200,
      );
      assert.equal(
        company['document/enterprise_document_upload'],
        `${api}/company_documents?document_type_id=handbook`,
      );
      // The URLs work.
      assert.equal(
        (await hr.call('GET', new URL(both['account/employee_root_folder_url'] as string).pathname)).status,
        200,
      );
      // What the query names must exist in this tenant.
      const unknown = await json<ErrorBody>(
        await other.call('GET', `/redirection_urls?employee_id=${employee.id}&doctype_id=contract`),
        422,
      );
      assert.deepEqual(
        unknown.errors?.map((e) => e.field),
        ['employee_id', 'doctype_id'],
      );
      assert.equal((await hr.call('GET', '/redirection_urls?employee_id=')).status, 400);
    });
  });
}
