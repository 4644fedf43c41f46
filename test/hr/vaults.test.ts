/**
 * Electronic vaults, employee subscriptions and portal invitations (reference §3a.8; docs/hr-api.md, "Electronic
 * vaults"): the options and their defaults, the state lifecycle (invite → activate, the Atrium extension → unlink →
 * deleted by the job runner), the outbox rows of invitations, follow-ups, portal invitations and document
 * notifications, documents dropped into a vault as employee documents (and the payslip opt-out), both lists' filters
 * and pages, and tenancy.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectJson as json } from '../support/admin.js';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { upload as uploadFile } from '../support/people-assist.js';

interface Vault {
  id: string;
  electronic_vault_id: string | null;
  electronic_vault_subscription_enabled: boolean;
  paper_documents_distribution_enabled: boolean;
  electronic_documents_distribution_enabled: boolean;
  electronic_payslips_opted_out: boolean;
  electronic_vault_state: string;
  electronic_payslips_choice_updated_at: string | null;
  electronic_payslips_choice_origin: string | null;
}

interface Subscription {
  employee_document_type_id: string;
  employee_choice: string | null;
  calculated_employee_choice: string | null;
  created_at: string;
  updated_at: string;
}

interface EmployeeSubscription {
  id: string;
  external_id: string | null;
  firstname: string;
  lastname: string;
  email: string | null;
  electronic_vault_subscription_enabled: boolean;
  paper_documents_distribution_enabled: boolean;
  electronic_documents_distribution_enabled: boolean;
  electronic_payslips_opted_out: boolean;
  electronic_vault_activated: boolean;
  subscriptions: Subscription[];
}

interface Mail {
  kind: string;
  to_address: string | null;
  to_name: string;
  subject: string;
  related_id: string | null;
}

interface ErrorBody {
  code: string;
  message: string;
  errors?: { field: string; code: string }[];
}

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

for (const dialect of dialects()) {
  describe(`electronic vaults, subscriptions and portal invitations (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;

    const db = () => server.app.database.db;
    const employee = async (firstname: string, extra: Record<string, unknown> = {}, caller = hr) =>
      (
        await json<{ id: string }>(
          await caller.call('POST', '/employees', {
            firstname,
            lastname: 'Test',
            email: `${firstname.toLowerCase()}@example.com`,
            registration_references: [{ organization_id: 'paris', employee_number: `N-${firstname}` }],
            ...extra,
          }),
          201,
        )
      ).id;
    const vault = async (id: string, caller = hr) =>
      json<Vault>(await caller.call('GET', `/electronic_vault_options/${id}`), 200);
    const outbox = async (query: string, caller = hr) =>
      json<Mail[]>(await caller.call('GET', `/outbox?${query}`), 200);
    const error = async (res: Promise<Response>, status: number) => json<ErrorBody>(await res, status);
    const upload = (text: string, filename = 'letter.pdf', caller = hr) =>
      uploadFile(server, caller, Buffer.from(text), filename);
    const stored = (employeeId: string) =>
      db().selectFrom('hr_electronic_vaults').selectAll().where('employee_id', '=', employeeId).executeTakeFirst();
    const until = async <T>(probe: () => Promise<T | undefined>, what: string): Promise<T> => {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const found = await probe();
        if (found !== undefined) return found;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };
    /** Invites and activates the employee's vault. */
    const activate = async (id: string) => {
      assert.equal((await hr.call('POST', `/employees/${id}/electronic_vault_invite`)).status, 204);
      return json<Vault>(await hr.call('POST', `/employees/${id}/electronic_vault_activate`), 200);
    };

    before(async () => {
      server = await startServer(dialect, { ATRIUM_JOB_POLL_MS: '20', ATRIUM_RATE_LIMIT: '0' });
      hr = await hrCaller(server);
      other = await hrCaller(server);
      for (const caller of [hr, other]) {
        await json(await caller.call('PUT', '/organizations/paris', { name: 'Paris' }), 201);
      }
      for (const [id, extra] of [
        ['contract', {}],
        ['payslip_fr', {}],
        ['bonus', { policies: ['payslip_policy_fr'] }],
      ] as const) {
        await json(
          await hr.call('PUT', `/employee_document_types/${id}`, {
            label: id,
            localized_labels: [{ language_code: 'en', value: id }],
            ...extra,
          }),
          201,
        );
      }
    });
    after(() => server.close());

    it('an employee without a row has the defaults; another client’s employee is 404', async () => {
      const id = await employee('Ada');
      assert.deepEqual(await vault(id), {
        id,
        electronic_vault_id: null,
        electronic_vault_subscription_enabled: true,
        paper_documents_distribution_enabled: true,
        electronic_documents_distribution_enabled: true,
        electronic_payslips_opted_out: false,
        electronic_vault_state: 'not_activated',
        electronic_payslips_choice_updated_at: null,
        electronic_payslips_choice_origin: null,
      });
      assert.equal(await stored(id), undefined, 'reading writes nothing');
      assert.equal((await error(other.call('GET', `/electronic_vault_options/${id}`), 404)).code, 'not_found');
      assert.equal((await error(hr.call('GET', `/electronic_vault_options/${UNKNOWN}`), 404)).code, 'not_found');
    });

    it('PATCH sets the options sent; the payslips choice is dated; a disabled subscription is not_available', async () => {
      const id = await employee('Bea');
      const patched = await json<Vault>(
        await hr.call('PATCH', `/electronic_vault_options/${id}`, {
          paper_documents_distribution_enabled: false,
          electronic_payslips_opted_out: true,
        }),
        200,
      );
      assert.equal(patched.paper_documents_distribution_enabled, false);
      assert.equal(patched.electronic_documents_distribution_enabled, true);
      assert.equal(patched.electronic_payslips_opted_out, true);
      assert.equal(patched.electronic_payslips_choice_origin, 'peopledoc');
      assert.match(patched.electronic_payslips_choice_updated_at ?? '', /^\d{4}-\d\d-\d\dT/);
      assert.deepEqual(await vault(id), patched);
      const row = await stored(id);
      assert.equal(row?.client_id, hr.creds.client_id);
      assert.equal(row?.paper_enabled, 0);
      assert.equal(row?.payslips_opted_out, 1);
      // The same choice again is no change of choice: its date stays.
      const again = await json<Vault>(
        await hr.call('PATCH', `/electronic_vault_options/${id}`, { electronic_payslips_opted_out: true }),
        200,
      );
      assert.equal(again.electronic_payslips_choice_updated_at, patched.electronic_payslips_choice_updated_at);

      const off = await json<Vault>(
        await hr.call('PATCH', `/electronic_vault_options/${id}`, { electronic_vault_subscription_enabled: false }),
        200,
      );
      assert.equal(off.electronic_vault_state, 'not_available');
      const invite = await error(hr.call('POST', `/employees/${id}/electronic_vault_invite`), 400);
      assert.equal(invite.code, 'invalid_request');
      assert.match(invite.message, /not_available/);
      const on = await json<Vault>(
        await hr.call('PATCH', `/electronic_vault_options/${id}`, { electronic_vault_subscription_enabled: true }),
        200,
      );
      assert.equal(on.electronic_vault_state, 'not_activated');

      const bad = await error(
        hr.call('PATCH', `/electronic_vault_options/${id}`, { electronic_vault_subscription_enabled: 'yes' }),
        422,
      );
      assert.equal(bad.code, 'validation_error');
      assert.equal((await error(hr.call('PATCH', `/electronic_vault_options/${UNKNOWN}`, {}), 404)).code, 'not_found');
      assert.equal(
        (
          await error(
            other.call('PATCH', `/electronic_vault_options/${id}`, { paper_documents_distribution_enabled: true }),
            404,
          )
        ).code,
        'not_found',
      );
      assert.equal((await stored(id))?.paper_enabled, 0, 'another client’s PATCH changed nothing');
    });

    it('the lifecycle: invite, follow-up, activate, unlink, deleted by the runner, invited again', async () => {
      const id = await employee('Cid');
      // Not invited yet: nothing to accept.
      assert.match(
        (await error(hr.call('POST', `/employees/${id}/electronic_vault_activate`), 400)).message,
        /invitation/,
      );
      assert.equal((await hr.call('DELETE', `/employees/${id}/electronic_vault_link`)).status, 400);

      const first = await hr.call('POST', `/employees/${id}/electronic_vault_invite`);
      assert.equal(first.status, 204);
      assert.equal(await first.text(), '');
      assert.equal((await hr.call('POST', `/employees/${id}/electronic_vault_invite`)).status, 204);
      const sent = await outbox(`related_id=${id}`);
      assert.deepEqual(
        sent.map((m) => [m.kind, m.to_address, m.to_name]),
        [
          ['electronic_vault.follow_up', 'cid@example.com', 'Cid Test'],
          ['electronic_vault.invitation', 'cid@example.com', 'Cid Test'],
        ],
      );
      const rows = await db()
        .selectFrom('hr_outbox')
        .select(['client_id', 'kind'])
        .where('related_id', '=', id)
        .orderBy('pk')
        .execute();
      assert.deepEqual(rows, [
        { client_id: hr.creds.client_id, kind: 'electronic_vault.invitation' },
        { client_id: hr.creds.client_id, kind: 'electronic_vault.follow_up' },
      ]);
      assert.equal((await vault(id)).electronic_vault_state, 'not_activated');

      const activated = await json<Vault>(await hr.call('POST', `/employees/${id}/electronic_vault_activate`), 200);
      assert.equal(activated.electronic_vault_state, 'activated');
      assert.match(activated.electronic_vault_id ?? '', /^[0-9a-f-]{36}$/);
      assert.deepEqual(await vault(id), activated);
      assert.match(
        (await error(hr.call('POST', `/employees/${id}/electronic_vault_invite`), 400)).message,
        /activated/,
      );
      assert.equal((await hr.call('POST', `/employees/${id}/electronic_vault_activate`)).status, 400);
      assert.equal((await outbox(`related_id=${id}`)).length, 2, 'a refused invitation sends nothing');

      // Another client can neither see nor unlink it.
      assert.equal(
        (await error(other.call('DELETE', `/employees/${id}/electronic_vault_link`), 404)).code,
        'not_found',
      );
      assert.equal((await vault(id)).electronic_vault_state, 'activated');
      assert.equal((await hr.call('DELETE', `/employees/${id}/electronic_vault_link`)).status, 204);
      const state = (await stored(id))?.state;
      assert.ok(state === 'pending_deletion' || state === 'deleted', `unlinked: ${state}`);
      const deleted = await until(async () => {
        const v = await vault(id);
        return v.electronic_vault_state === 'deleted' ? v : undefined;
      }, 'the deletion');
      assert.equal(deleted.electronic_vault_id, null);
      assert.equal(
        (await error(hr.call('DELETE', `/employees/${id}/electronic_vault_link`), 400)).code,
        'invalid_request',
      );
      // A deleted vault's invitation was forgotten: activating needs a new one, which is a first invitation again.
      assert.equal((await hr.call('POST', `/employees/${id}/electronic_vault_activate`)).status, 400);
      assert.equal((await hr.call('POST', `/employees/${id}/electronic_vault_invite`)).status, 204);
      assert.equal((await outbox(`related_id=${id}`))[0]?.kind, 'electronic_vault.invitation');
      const again = await json<Vault>(await hr.call('POST', `/employees/${id}/electronic_vault_activate`), 200);
      assert.equal(again.electronic_vault_state, 'activated');
      assert.notEqual(again.electronic_vault_id, activated.electronic_vault_id);

      const events = await json<{ type: string }[]>(
        await hr.call('GET', `/events?resource_id=${id}&per_page=100`),
        200,
      );
      assert.deepEqual(events.map((e) => e.type).reverse(), [
        'employee.created',
        'electronic_vault.activated',
        'electronic_vault.unlinked',
        'electronic_vault.deleted',
        'electronic_vault.activated',
      ]);
    });

    it('unlinking queues the deletion job in the same transaction; the runner completes it', async () => {
      const id = await employee('Dot');
      await activate(id);
      assert.equal((await hr.call('DELETE', `/employees/${id}/electronic_vault_link`)).status, 204);
      const job = await db()
        .selectFrom('jobs')
        .select(['queue', 'tenant', 'payload'])
        .where('queue', '=', 'electronic_vault.delete')
        .where('payload', 'like', `%${id}%`)
        .executeTakeFirstOrThrow();
      assert.equal(job.tenant, hr.creds.client_id);
      await until(async () => ((await vault(id)).electronic_vault_state === 'deleted' ? true : undefined), 'deleted');
    });

    it('invitations: 400 without an e-mail address; 404 unknown or another client’s employee', async () => {
      const id = await employee('Eve', {
        email: undefined,
        address1: '1 rue de la Paix',
        zip_code: '75002',
        city: 'Paris',
        country: 'FR',
        saml_token: 'sso-eve',
      });
      assert.match((await error(hr.call('POST', `/employees/${id}/electronic_vault_invite`), 400)).message, /e-mail/);
      const portal = await error(hr.call('POST', `/employees/${id}/portal_invite`), 422);
      assert.equal(portal.code, 'no_email');
      assert.deepEqual(await outbox(`related_id=${id}`), []);
      const mine = await employee('Fay');
      for (const path of ['electronic_vault_invite', 'electronic_vault_activate', 'portal_invite']) {
        assert.equal((await error(other.call('POST', `/employees/${mine}/${path}`), 404)).code, 'not_found');
        assert.equal((await error(hr.call('POST', `/employees/${UNKNOWN}/${path}`), 404)).code, 'not_found');
      }
      assert.equal((await other.call('DELETE', `/employees/${mine}/electronic_vault_link`)).status, 404);
      assert.deepEqual(await outbox(`related_id=${mine}`), []);
      assert.deepEqual(await outbox(`related_id=${mine}`, other), []);
    });

    it('portal invitations: the mail, then follow-ups, in the outbox', async () => {
      const id = await employee('Gus');
      const res = await hr.call('POST', `/employees/${id}/portal_invite`);
      assert.equal(res.status, 204);
      assert.equal(await res.text(), '');
      assert.equal((await hr.call('POST', `/employees/${id}/portal_invite`)).status, 204);
      assert.equal((await hr.call('POST', `/employees/${id}/portal_invite`)).status, 204);
      const sent = await outbox(`related_id=${id}`);
      assert.deepEqual(
        sent.map((m) => [m.kind, m.to_address]),
        [
          ['portal.follow_up', 'gus@example.com'],
          ['portal.follow_up', 'gus@example.com'],
          ['portal.invitation', 'gus@example.com'],
        ],
      );
      const row = await db()
        .selectFrom('hr_outbox')
        .select(['client_id', 'subject'])
        .where('related_id', '=', id)
        .where('kind', '=', 'portal.invitation')
        .executeTakeFirstOrThrow();
      assert.deepEqual(row, { client_id: hr.creds.client_id, subject: 'Your employee portal' });
      // The portal invitation is not the vault's: the vault is still to be invited.
      assert.equal((await hr.call('POST', `/employees/${id}/electronic_vault_activate`)).status, 400);
    });

    it('a document dropped into an activated vault is an employee document, and the employee is told', async () => {
      const id = await employee('Hal');
      const fileId = await upload('%PDF-1.4 contract', 'contract.pdf');
      const body = { upload_id: fileId, document_type_id: 'contract', document_title: 'Employment contract' };
      const notActivated = await error(hr.call('POST', `/employees/${id}/electronic_vault_documents`, body), 400);
      assert.match(notActivated.message, /not activated/);
      await activate(id);
      const res = await hr.call('POST', `/employees/${id}/electronic_vault_documents`, body);
      assert.equal(res.status, 204, await res.clone().text());
      assert.equal(await res.text(), '');
      const docs = await json<Record<string, unknown>[]>(
        await hr.call('GET', `/employee_documents?employee_id=${id}`),
        200,
      );
      assert.equal(docs.length, 1);
      const doc = docs[0] as Record<string, unknown>;
      const today = new Date().toISOString().slice(0, 10);
      assert.deepEqual(
        [doc.employee_id, doc.document_type_id, doc.title, doc.name, doc.date, doc.origin, doc.origin_details],
        [id, 'contract', 'Employment contract', 'contract.pdf', today, 'api', 'drop_in_vault'],
      );
      assert.deepEqual(doc.organization_ids, ['paris']);
      const file = await hr.call('GET', `/employee_documents/${doc.id}/file`);
      assert.equal(await file.text(), '%PDF-1.4 contract');
      const note = await outbox(`kind=electronic_vault.document&related_id=${doc.id}`);
      assert.equal(note.length, 1);
      assert.equal(note[0]?.to_address, 'hal@example.com');
      assert.equal(note[0]?.subject, 'New in your electronic vault: Employment contract');
      const row = await db()
        .selectFrom('hr_outbox')
        .select('client_id')
        .where('related_id', '=', String(doc.id))
        .executeTakeFirstOrThrow();
      assert.equal(row.client_id, hr.creds.client_id);

      // The upload is used up; the date given is kept; no mail when asked not to.
      const reused = await error(hr.call('POST', `/employees/${id}/electronic_vault_documents`, body), 422);
      assert.deepEqual(
        reused.errors?.map((e) => [e.field, e.code]),
        [['upload_id', 'already_used']],
      );
      const quiet = await upload('%PDF-1.4 note', 'note.pdf');
      assert.equal(
        (
          await hr.call('POST', `/employees/${id}/electronic_vault_documents`, {
            upload_id: quiet,
            document_type_id: 'contract',
            document_title: 'Note',
            document_date: '2026-01-31',
            send_notification: false,
          })
        ).status,
        204,
      );
      const noted = await json<Record<string, unknown>[]>(
        await hr.call('GET', `/employee_documents?employee_id=${id}&q=Note`),
        200,
      );
      assert.equal(noted[0]?.date, '2026-01-31');
      assert.deepEqual(await outbox(`kind=electronic_vault.document&related_id=${noted[0]?.id}`), []);

      // Field errors are 422 and use nothing up.
      const fresh = await upload('%PDF-1.4 other');
      const unknownType = await error(
        hr.call('POST', `/employees/${id}/electronic_vault_documents`, {
          ...body,
          upload_id: fresh,
          document_type_id: 'nope',
        }),
        422,
      );
      assert.deepEqual(
        unknownType.errors?.map((e) => [e.field, e.code]),
        [['document_type_id', 'not_found']],
      );
      const missing = await error(
        hr.call('POST', `/employees/${id}/electronic_vault_documents`, { upload_id: fresh }),
        422,
      );
      assert.equal(missing.code, 'validation_error');
      const badDate = await error(
        hr.call('POST', `/employees/${id}/electronic_vault_documents`, {
          ...body,
          upload_id: fresh,
          document_date: '31/01/2026',
        }),
        422,
      );
      assert.equal(badDate.code, 'validation_error');
      // Another client's employee is unknown, and its own upload is not this client's.
      assert.equal(
        (
          await error(
            other.call('POST', `/employees/${id}/electronic_vault_documents`, { ...body, upload_id: fresh }),
            404,
          )
        ).code,
        'not_found',
      );
      assert.equal((await hr.call('POST', `/employees/${UNKNOWN}/electronic_vault_documents`, body)).status, 404);
      const uploadRow = await db()
        .selectFrom('hr_uploads')
        .select('consumed_at')
        .where('id', '=', fresh)
        .executeTakeFirstOrThrow();
      assert.equal(uploadRow.consumed_at, null);

      // Electronic distribution disabled: nothing is dropped.
      await json(
        await hr.call('PATCH', `/electronic_vault_options/${id}`, { electronic_documents_distribution_enabled: false }),
        200,
      );
      assert.match(
        (
          await error(
            hr.call('POST', `/employees/${id}/electronic_vault_documents`, { ...body, upload_id: fresh }),
            400,
          )
        ).message,
        /disabled/,
      );
    });

    it('payslips respect the opt-out: a payslip type is refused, other types are dropped', async () => {
      const id = await employee('Ivy');
      await activate(id);
      await json(
        await hr.call('PATCH', `/electronic_vault_options/${id}`, { electronic_payslips_opted_out: true }),
        200,
      );
      for (const type of ['payslip_fr', 'bonus']) {
        const fileId = await upload(`%PDF-1.4 ${type}`);
        const refused = await error(
          hr.call('POST', `/employees/${id}/electronic_vault_documents`, {
            upload_id: fileId,
            document_type_id: type,
            document_title: 'March',
          }),
          400,
        );
        assert.match(refused.message, /opted out/);
        const row = await db()
          .selectFrom('hr_uploads')
          .select('consumed_at')
          .where('id', '=', fileId)
          .executeTakeFirstOrThrow();
        assert.equal(row.consumed_at, null, 'the upload is not used up');
      }
      const contract = await upload('%PDF-1.4 contract');
      assert.equal(
        (
          await hr.call('POST', `/employees/${id}/electronic_vault_documents`, {
            upload_id: contract,
            document_type_id: 'contract',
            document_title: 'Contract',
          })
        ).status,
        204,
      );
      await json(
        await hr.call('PATCH', `/electronic_vault_options/${id}`, { electronic_payslips_opted_out: false }),
        200,
      );
      const payslip = await upload('%PDF-1.4 payslip');
      assert.equal(
        (
          await hr.call('POST', `/employees/${id}/electronic_vault_documents`, {
            upload_id: payslip,
            document_type_id: 'payslip_fr',
            document_title: 'March',
          })
        ).status,
        204,
      );
      const docs = await json<unknown[]>(await hr.call('GET', `/employee_documents?employee_id=${id}`), 200);
      assert.equal(docs.length, 2);
    });

    it('GET /electronic_vault_options: every employee in creation order, filters and Link pages; tenancy', async () => {
      const fresh = await hrCaller(server);
      await json(await fresh.call('PUT', '/organizations/paris', { name: 'Paris' }), 201);
      const ids: string[] = [];
      for (const name of ['Jo', 'Kay', 'Lou', 'Max', 'Ned']) ids.push(await employee(name, {}, fresh));
      const [jo, kay, lou, max, ned] = ids as [string, string, string, string, string];
      await employee('Stranger', {}, other);
      await fresh.call('POST', `/employees/${kay}/electronic_vault_invite`);
      await json(await fresh.call('POST', `/employees/${kay}/electronic_vault_activate`), 200);
      await json(
        await fresh.call('PATCH', `/electronic_vault_options/${lou}`, { electronic_vault_subscription_enabled: false }),
        200,
      );
      const all = await json<Vault[]>(await fresh.call('GET', '/electronic_vault_options?per_page=100'), 200);
      assert.deepEqual(
        all.map((v) => [v.id, v.electronic_vault_state]),
        [
          [jo, 'not_activated'],
          [kay, 'activated'],
          [lou, 'not_available'],
          [max, 'not_activated'],
          [ned, 'not_activated'],
        ],
      );
      const state = async (s: string) =>
        (
          await json<Vault[]>(await fresh.call('GET', `/electronic_vault_options?electronic_vault_state=${s}`), 200)
        ).map((v) => v.id);
      assert.deepEqual(await state('activated'), [kay]);
      assert.deepEqual(await state('not_available'), [lou]);
      assert.deepEqual(await state('not_activated'), [jo, max, ned]);
      assert.deepEqual(await state('deleted'), []);
      assert.equal((await fresh.call('GET', '/electronic_vault_options?electronic_vault_state=gone')).status, 400);
      const some = await json<Vault[]>(
        await fresh.call('GET', `/electronic_vault_options?employees_ids=${ned},${jo},${UNKNOWN}`),
        200,
      );
      assert.deepEqual(
        some.map((v) => v.id),
        [jo, ned],
      );
      const tooMany = Array.from({ length: 501 }, (_, i) => `e${i}`).join(',');
      assert.equal((await fresh.call('GET', `/electronic_vault_options?employees_ids=${tooMany}`)).status, 400);

      // Pages of two, by the Link header.
      const seen: string[] = [];
      let path: string | undefined = '/electronic_vault_options?per_page=2';
      let pages = 0;
      while (path) {
        const res = await fresh.call('GET', path);
        const page = await json<Vault[]>(res, 200);
        seen.push(...page.map((v) => v.id));
        pages++;
        const link = res.headers.get('link') ?? '';
        const next = /<([^>]+)>; rel="next"/.exec(link)?.[1];
        if (next) assert.ok(res.headers.get('next-cursor'), 'the cursor header too');
        path = next?.replace(/^\/api\/v2\/client/, '');
      }
      assert.equal(pages, 3);
      assert.deepEqual(seen, ids);
      // Another client's list never shows these employees.
      const theirs = await json<Vault[]>(await other.call('GET', '/electronic_vault_options?per_page=100'), 200);
      assert.ok(
        theirs.every((v) => !ids.includes(v.id)),
        'no employee of another client',
      );
      assert.deepEqual(await json(await other.call('GET', `/electronic_vault_options?employees_ids=${jo}`), 200), []);
    });

    it('GET /employee_subscriptions: one subscription per document type, derived; filters, pages of up to 250', async () => {
      const fresh = await hrCaller(server);
      await json(await fresh.call('PUT', '/organizations/paris', { name: 'Paris' }), 201);
      for (const id of ['contract', 'payslip']) {
        await json(
          await fresh.call('PUT', `/employee_document_types/${id}`, {
            label: id,
            localized_labels: [{ language_code: 'en', value: id }],
          }),
          201,
        );
      }
      const pat = await employee('Pat', { external_id: 'EXT-PAT' }, fresh);
      const quinn = await employee('Quinn', {}, fresh);
      const ray = await employee('Ray', {}, fresh);
      await fresh.call('POST', `/employees/${quinn}/electronic_vault_invite`);
      await json(await fresh.call('POST', `/employees/${quinn}/electronic_vault_activate`), 200);
      await json(
        await fresh.call('PATCH', `/electronic_vault_options/${ray}`, {
          electronic_payslips_opted_out: true,
          paper_documents_distribution_enabled: false,
        }),
        200,
      );

      const all = await json<EmployeeSubscription[]>(await fresh.call('GET', '/employee_subscriptions'), 200);
      assert.deepEqual(
        all.map((e) => e.id),
        [pat, quinn, ray],
      );
      const [p, q, r] = all as [EmployeeSubscription, EmployeeSubscription, EmployeeSubscription];
      assert.deepEqual(
        { ...p, subscriptions: undefined },
        {
          id: pat,
          external_id: 'EXT-PAT',
          firstname: 'Pat',
          lastname: 'Test',
          email: 'pat@example.com',
          electronic_vault_subscription_enabled: true,
          paper_documents_distribution_enabled: true,
          electronic_documents_distribution_enabled: true,
          electronic_payslips_opted_out: false,
          electronic_vault_activated: false,
          subscriptions: undefined,
        },
      );
      const choices = (e: EmployeeSubscription) =>
        e.subscriptions.map((s) => [s.employee_document_type_id, s.employee_choice, s.calculated_employee_choice]);
      assert.deepEqual(choices(p), [
        ['contract', null, null],
        ['payslip', null, null],
      ]);
      assert.equal(q.electronic_vault_activated, true);
      assert.deepEqual(choices(q), [
        ['contract', 'electronic', 'electronic'],
        ['payslip', 'electronic', 'electronic'],
      ]);
      // Ray chose paper payslips, but paper is disabled for them: the calculated choice is null.
      assert.deepEqual(choices(r), [
        ['contract', null, null],
        ['payslip', 'paper', null],
      ]);
      for (const s of p.subscriptions) {
        assert.match(s.created_at, /^\d{4}-\d\d-\d\dT/);
        assert.ok(s.updated_at >= s.created_at, 'updated after created');
      }

      const ids = async (query: string) =>
        (await json<EmployeeSubscription[]>(await fresh.call('GET', `/employee_subscriptions?${query}`), 200)).map(
          (e) => e.id,
        );
      assert.deepEqual(await ids('external_id=EXT-PAT'), [pat]);
      assert.deepEqual(await ids('external_id=nobody'), []);
      assert.deepEqual(await ids('electronic_vault_activated=true'), [quinn]);
      assert.deepEqual(await ids('electronic_vault_activated=false'), [pat, ray]);
      assert.deepEqual(await ids('electronic_payslips_opted_out=true'), [ray]);
      assert.deepEqual(await ids('electronic_payslips_opted_out=false'), [pat, quinn]);
      const one = await json<EmployeeSubscription[]>(
        await fresh.call('GET', '/employee_subscriptions?employee_document_type_id=payslip'),
        200,
      );
      assert.deepEqual(
        one.map((e) => e.subscriptions.map((s) => s.employee_document_type_id)),
        [['payslip'], ['payslip'], ['payslip']],
      );
      const unknownType = await error(fresh.call('GET', '/employee_subscriptions?employee_document_type_id=nope'), 400);
      assert.equal(unknownType.code, 'invalid_request');
      assert.equal((await fresh.call('GET', '/employee_subscriptions?electronic_vault_activated=maybe')).status, 400);

      // Pages: per_page up to 250 (a larger one is served as 250), Link to the next page.
      const first = await fresh.call('GET', '/employee_subscriptions?per_page=2');
      assert.equal((await json<unknown[]>(first, 200)).length, 2);
      const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1] ?? '';
      assert.match(next, /per_page=2/);
      const second = await json<EmployeeSubscription[]>(
        await fresh.call('GET', next.replace(/^\/api\/v2\/client/, '')),
        200,
      );
      assert.deepEqual(
        second.map((e) => e.id),
        [ray],
      );
      assert.equal((await fresh.call('GET', '/employee_subscriptions?per_page=250')).status, 200);
      assert.equal((await fresh.call('GET', '/employee_subscriptions?per_page=251')).status, 200);
      assert.equal((await fresh.call('GET', '/employee_subscriptions?per_page=0')).status, 400);

      // One employee's, with the optional type filter; 404 across clients.
      const mine = await json<EmployeeSubscription>(await fresh.call('GET', `/employee_subscriptions/${q.id}`), 200);
      assert.deepEqual(mine, q);
      const filtered = await json<EmployeeSubscription>(
        await fresh.call('GET', `/employee_subscriptions/${q.id}?employee_document_type_id=contract`),
        200,
      );
      assert.deepEqual(
        filtered.subscriptions.map((s) => s.employee_document_type_id),
        ['contract'],
      );
      assert.equal(
        (await error(fresh.call('GET', `/employee_subscriptions/${q.id}?employee_document_type_id=nope`), 400)).code,
        'invalid_request',
      );
      assert.equal((await error(other.call('GET', `/employee_subscriptions/${q.id}`), 404)).code, 'not_found');
      assert.equal((await fresh.call('GET', `/employee_subscriptions/${UNKNOWN}`)).status, 404);
      const theirs = await json<EmployeeSubscription[]>(
        await other.call('GET', '/employee_subscriptions?per_page=250'),
        200,
      );
      assert.ok(
        theirs.every((e) => ![pat, quinn, ray].includes(e.id)),
        'no employee of another client',
      );
    });
  });
}
