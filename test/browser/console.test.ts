/**
 * The console (`/console`) in a real browser (Debian's Chromium through playwright-core; test/support/browser.ts):
 * signing in and out, CSRF refused, tenants and their credentials (a secret shown once), the live request log, the
 * clock, fault rules and snapshots with their effect seen by the API, and axe-core's accessibility checks at 1280
 * and 390 px wide, in light and dark mode. Every page is reached by a name that is not loopback; nothing is loaded
 * from elsewhere.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { DepartureStore } from '../../src/admin/proxy/store.js';
import { seriousViolations } from '../support/axe.js';
import {
  launchBrowser,
  lookOf,
  openPage,
  type PageLook,
  type RecordedPage,
  skipWithoutBrowser,
} from '../support/browser.js';
import { dialects, getToken, startServer, type TestServer } from '../support/harness.js';

const dialect = dialects()[0] ?? 'sqlite';
const HOST = 'atrium.test';

describe('the console in Chromium', { skip: skipWithoutBrowser() }, () => {
  let server: TestServer;
  let browser: Browser;
  let origin: string;
  let token: string;
  const open: RecordedPage[] = [];

  /** A page of its own (no cookie shared), signed in when asked, at a width (and other context options). */
  const newPage = async (options: PageLook = {}, context: BrowserContextOptions = {}) => {
    const recorded = await openPage(browser, { ...lookOf(options), ...context });
    open.push(recorded);
    return recorded;
  };
  const signIn = async (page: Page, path = '/console/') => {
    await page.goto(`${origin}${path}`);
    await page.getByLabel('Operator token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  };
  const admin = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${server.url}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  /** A fresh HR client with an application, and a caller of the HR API as it. */
  const hrTenant = async (name: string) => {
    const { tenant } = await admin<{ tenant: { id: string } }>('POST', '/tenants/hr', { name });
    const app = await admin<{ client_id: string; application_id: string; application_secret: string }>(
      'POST',
      `/tenants/hr/${tenant.id}/applications`,
      { name: 'tests' },
    );
    // A token per call, issued in the client's time: moving its clock years ahead expires the ones issued before.
    const call = async (method: string, path: string, body?: unknown) =>
      fetch(`${server.url}/api/v2/client${path}`, {
        method,
        headers: {
          authorization: `Bearer ${await getToken(server, app)}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    return { id: tenant.id, applicationId: app.application_id, call };
  };
  /** Errors of a page but the expected 401 of `GET /admin/v1/session` before signing in. */
  const unexpected = (recorded: RecordedPage) =>
    recorded.errors.filter((e) => !/status of 401 \(Unauthorized\)/.test(e));

  before(async () => {
    server = await startServer(dialect);
    token = (await server.app.services.adminTokens.create('console browser tests', 'cli')).token;
    browser = await launchBrowser({ hosts: { [HOST]: '127.0.0.1' } });
    origin = `http://${HOST}:${new URL(server.url).port}`;
  });
  after(async () => {
    for (const recorded of open) await recorded.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
  });

  it('signs in and out; a bad token is refused; a change without the CSRF token is refused', async () => {
    const recorded = await newPage();
    const { page } = recorded;
    await page.goto(`${origin}/console`);
    await page.getByLabel('Operator token').fill('atrium_admin_not-a-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('unknown or revoked').waitFor();

    await page.getByLabel('Operator token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Tenants' }).waitFor();
    const cookies = await recorded.context.cookies();
    const session = cookies.find((c) => c.name === 'atrium_admin_session');
    assert.ok(session, 'a session cookie');
    assert.equal(session.httpOnly, true);
    assert.equal(session.sameSite, 'Strict');
    assert.equal(session.path, '/admin/v1');
    assert.equal(await page.evaluate('document.cookie'), '', 'no script can read it');
    assert.equal(await page.evaluate('JSON.stringify(localStorage) + JSON.stringify(sessionStorage)'), '{}{}');

    // The page's own origin, with the cookie, but without X-CSRF-Token: refused, and nothing made.
    const refused = (await page.evaluate(
      `fetch('/admin/v1/tenants/hr', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'csrf' }) }).then(async (r) => [r.status, (await r.json()).code])`,
    )) as [number, string];
    assert.deepEqual(refused, [403, 'csrf_refused']);
    const listed = await admin<{ tenants: { name: string }[] }>('GET', '/tenants');
    assert.ok(!listed.tenants.some((t) => t.name === 'csrf'));

    await page.reload();
    await page.getByRole('heading', { name: 'Tenants' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Operator token').waitFor();
    assert.equal(
      (await recorded.context.cookies()).some((c) => c.name === 'atrium_admin_session'),
      false,
    );
    await page.reload();
    await page.getByLabel('Operator token').waitFor();
    assert.deepEqual(recorded.outside(origin), [], 'nothing from another origin');
    assert.deepEqual(
      unexpected(recorded).filter((e) => !/status of 403 \(Forbidden\)/.test(e)),
      [],
      'no error but the refused call above',
    );
  });

  it('creates a tenant and an application: the secret is shown once, works, and is gone afterwards', async () => {
    const recorded = await newPage();
    const { page } = recorded;
    await signIn(page);
    const name = `Browser client ${Date.now()}`;
    await page.getByRole('form', { name: 'New HR client' }).getByLabel('Name').fill(name);
    await page.getByRole('form', { name: 'New HR client' }).getByRole('button', { name: 'Create' }).click();
    const card = page.getByRole('article', { name: `HR client ${name}` });
    await card.waitFor();
    await card.getByRole('textbox', { name: 'New application' }).fill('sync');
    await card.getByRole('button', { name: 'Create application' }).click();
    const secretBox = page.getByTestId('secret');
    await secretBox.waitFor();
    const secret = await secretBox.getByRole('textbox').inputValue();
    assert.ok(secret.length >= 32, secret);
    const clientId = ((await card.locator('header code').textContent()) ?? '').replace('client_id ', '').trim();
    const applicationId = (await card.locator('tbody code').first().textContent())?.trim() ?? '';
    const bearer = await getToken(server, {
      client_id: clientId,
      application_id: applicationId,
      application_secret: secret,
    });
    assert.ok(bearer.length > 20, 'the secret shown gets a token');

    await secretBox.getByRole('button', { name: 'Done' }).click();
    assert.equal(await page.getByTestId('secret').count(), 0);
    await page.reload();
    await card.waitFor();
    assert.ok(!(await page.content()).includes(secret), 'absent from the page afterwards');
    const listed = await (
      await fetch(`${server.url}/admin/v1/tenants`, { headers: { authorization: `Bearer ${token}` } })
    ).text();
    assert.ok(!listed.includes(secret), 'and from every listing');
    assert.deepEqual(unexpected(recorded), []);
    assert.deepEqual(recorded.outside(origin), [], 'no request outside Atrium');
  });

  it('shows a call made by another client in the live log, and copies it as curl without its token', async () => {
    const tenant = await hrTenant(`Log ${Date.now()}`);
    const recorded = await newPage();
    const { page } = recorded;
    await signIn(page, `/console/tenants/hr/${tenant.id}/log`);
    await page.getByText('Live: new calls appear').waitFor();
    assert.equal((await tenant.call('GET', '/organizations?per_page=3')).status, 200);
    const row = page.getByRole('row').filter({ hasText: 'GET /api/v2/client/organizations?per_page=3' });
    await row.waitFor();
    await row.getByRole('button').click();
    const curl = (await page.getByTestId('curl').textContent()) ?? '';
    assert.match(
      curl,
      /^curl -X GET 'http:\/\/atrium\.test:\d+\/api\/v2\/client\/organizations\?per_page=3' -H 'authorization: Bearer <access_token>'/,
    );
    // The caller by its application's name ('tests', hrTenant), its id beside it and as the name's title.
    const caller = page.getByTestId('caller');
    assert.equal(await caller.textContent(), 'tests');
    assert.equal(await caller.getAttribute('title'), `application ${tenant.applicationId}`);
    assert.ok(
      ((await page.getByTestId('call').textContent()) ?? '').includes(`by tests (application ${tenant.applicationId})`),
    );
    // The filter finds the calls by the application's name as by its id.
    const application = page.getByRole('form', { name: 'Filter the calls' }).getByLabel('Application');
    for (const [value, rows] of [
      ['tests', 1],
      [tenant.applicationId, 1],
      ['another', 0],
    ] as const) {
      await application.fill(value);
      assert.equal(await row.count(), rows, value);
    }
    await application.fill('');
    // A near miss (an unknown path, the token naming the tenant): marked in the live log, with the operation meant.
    assert.equal((await tenant.call('GET', '/organisations')).status, 404);
    const miss = page.getByRole('row').filter({ hasText: 'GET /api/v2/client/organisations' });
    await miss.getByTestId('near-miss').getByText('near miss: unknown path').waitFor();
    await miss.getByRole('button').click();
    await page.getByTestId('near-miss-detail').getByText('GET /api/v2/client/organizations').first().waitFor();
    assert.deepEqual(unexpected(recorded), []);
    assert.deepEqual(recorded.outside(origin), [], 'no request outside Atrium');
  });

  it('verifies calls, shows the closest ones with what differed, and empties the log', async () => {
    const tenant = await hrTenant(`Verify ${Date.now()}`);
    assert.equal((await tenant.call('PUT', '/organizations/paris', { name: 'Paris' })).status, 201);
    const recorded = await newPage();
    const { page } = recorded;
    await signIn(page, `/console/tenants/hr/${tenant.id}/log`);
    const form = page.getByRole('form', { name: 'Verify calls' });
    const outcome = page.getByTestId('verification');
    await form.getByLabel('Method').fill('PUT');
    await form.getByLabel('Path pattern').fill('/api/v2/client/organizations/{id}');
    await form.getByLabel('Times').fill('1');
    await form.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Verified: 1 call matched (exactly 1 asked').waitFor();

    await form.getByLabel('Path pattern').fill('/api/v2/client/organizations/lyon');
    await form.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Not verified: 0 calls matched').waitFor();
    const closest = (await page.getByTestId('closest').textContent()) ?? '';
    assert.match(closest, /PUT \/api\/v2\/client\/organizations\/paris → 201/);
    assert.match(
      closest,
      /path: expected "\/api\/v2\/client\/organizations\/lyon", got "\/api\/v2\/client\/organizations\/paris"/,
    );

    await form.getByRole('button', { name: 'Empty the log' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Empty the log' }).click();
    await page.getByText(/The log is empty: \d+ calls? deleted\./).waitFor();
    assert.match((await outcome.textContent()) ?? '', /deleted/);
    await page.getByText('No call yet.').waitFor();
    const log = await admin<{ requests: unknown[] }>('GET', `/tenants/hr/${tenant.id}/requests`);
    assert.deepEqual(log.requests, [], 'the API shows the log empty');
    assert.deepEqual(unexpected(recorded), []);
  });

  it('brings an opened call into view and focuses it, far below a long log; Close goes back to its row', async () => {
    const tenant = await hrTenant(`Long log ${Date.now()}`);
    for (let i = 1; i <= 40; i++) assert.equal((await tenant.call('GET', `/organizations?page=${i}`)).status, 200);
    await server.app.services.requestLog.flush();
    const recorded = await newPage();
    const { page } = recorded;
    await signIn(page, `/console/tenants/hr/${tenant.id}/log`);
    const newest = page.getByRole('row').filter({ hasText: '/organizations?page=40' });
    await newest.waitFor();
    // The newest call is the table's first row, in sight without scrolling: its detail is drawn below all 40.
    await newest.getByRole('button').click();
    const detail = page.getByTestId('call');
    await detail.waitFor();
    const place = (await page.evaluate(`(() => {
      const el = document.querySelector('[data-testid="call"]');
      const box = el.getBoundingClientRect();
      return { top: box.top, bottom: box.bottom, height: window.innerHeight, focused: el === document.activeElement };
    })()`)) as { top: number; bottom: number; height: number; focused: boolean };
    assert.ok(place.top >= 0 && place.top < place.height, `the detail's top at ${place.top} of ${place.height} px`);
    assert.ok(place.bottom > 0, `the detail's bottom at ${place.bottom}`);
    assert.equal(place.focused, true, 'the detail has the focus');
    assert.match((await detail.getByRole('heading', { level: 2 }).textContent()) ?? '', /page=40/);

    await detail.getByRole('button', { name: 'Close' }).click();
    await page.waitForFunction(`document.activeElement?.closest('tr')?.textContent?.includes('page=40') === true`);
    assert.deepEqual(unexpected(recorded), []);
  });

  it('sets the clock and adds a fault rule, and the API shows both; saves and restores a snapshot', async () => {
    const tenant = await hrTenant(`Controls ${Date.now()}`);
    assert.equal((await tenant.call('PUT', '/organizations/paris', { name: 'Paris' })).status, 201);
    // A browser in Japan (UTC+09:00 all year): the time typed is read in its zone, and the form says so.
    const recorded = await newPage({}, { timezoneId: 'Asia/Tokyo' });
    const { page } = recorded;
    await signIn(page, `/console/tenants/hr/${tenant.id}`);
    const time = page.getByLabel('Time', { exact: true });
    const hint = page.getByTestId('clock-zone');
    assert.equal(await hint.textContent(), "In your browser's time zone: Asia/Tokyo, UTC+09:00.");
    assert.equal(await time.getAttribute('aria-describedby'), await hint.getAttribute('id'), 'the hint describes it');
    await time.fill('2031-02-01T09:00');
    await page.getByRole('button', { name: 'Set the clock' }).click();
    await page.getByTestId('clock-now').getByText('(frozen)').waitFor();
    const clocked = await tenant.call('GET', '/organizations/paris');
    assert.match(clocked.headers.get('x-atrium-clock') ?? '', /; frozen$/);
    const clock = await admin<{ now: string }>('GET', `/tenants/hr/${tenant.id}/clock`);
    assert.equal(Date.parse(clock.now), Date.parse('2031-02-01T00:00:00Z'), `09:00 in Tokyo: ${clock.now}`);

    // The operation is a choice among the HR API's operationIds, as the admin API lists them; nothing else.
    const operation = page.getByRole('form', { name: 'New fault rule' }).getByRole('combobox', { name: 'Operation' });
    assert.equal(await operation.count(), 1, 'the operation is a select');
    const listed = await admin<{ operation_ids: string[] }>('GET', `/tenants/hr/${tenant.id}/operations`);
    assert.ok(listed.operation_ids.length > 50, `${listed.operation_ids.length} operations`);
    await operation.locator('option').nth(1).waitFor({ state: 'attached' });
    const offered = await operation
      .locator('option')
      .evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value));
    assert.deepEqual(offered, ['', ...listed.operation_ids], 'every call, then each operationId');
    assert.equal(await page.getByRole('form', { name: 'New fault rule' }).getByRole('textbox').count(), 0);
    await operation.selectOption('hr_organizations_list');
    await page.getByLabel('Times (empty: until deleted)').fill('1');
    await page.getByRole('button', { name: 'Add the rule' }).click();
    await page.getByText('answers 503').waitFor();
    const faulted = await tenant.call('GET', '/organizations');
    assert.equal(faulted.status, 503);
    assert.ok(faulted.headers.get('x-atrium-fault'));

    // The richer kinds: a seeded uniform delay, then a rule on the token endpoint, before authentication.
    const form = page.getByRole('form', { name: 'New fault rule' });
    await operation.selectOption('hr_organizations_retrieve');
    await form.getByRole('combobox', { name: 'Effect' }).selectOption('uniform');
    await form.getByLabel('Min (ms)').fill('5');
    await form.getByLabel('Max (ms)').fill('20');
    await form.getByLabel('Times (empty: until deleted)').fill('');
    await form.getByLabel('Seed (empty: random)').fill('7');
    await page.getByRole('button', { name: 'Add the rule' }).click();
    await page.getByText('5–20 ms late').waitFor();
    const rules = await admin<{ faults: { effect: unknown; seed: number | null }[] }>(
      'GET',
      `/tenants/hr/${tenant.id}/faults`,
    );
    assert.deepEqual(rules.faults.at(-1)?.effect, { type: 'latency', distribution: 'uniform', min_ms: 5, max_ms: 20 });
    assert.equal(rules.faults.at(-1)?.seed, 7);
    const delayed = await tenant.call('GET', '/organizations/paris');
    const ms = Number(delayed.headers.get('x-atrium-fault-latency-ms'));
    assert.ok(ms >= 5 && ms <= 20, `${ms} ms drawn`);
    await operation.selectOption('hr_getAccessToken');
    await form.getByRole('checkbox', { name: 'before authentication' }).check();
    await form.getByRole('combobox', { name: 'Effect' }).selectOption('502');
    await form.getByLabel('Seed (empty: random)').fill('');
    await form.getByLabel('Times (empty: until deleted)').fill('1');
    await page.getByRole('button', { name: 'Add the rule' }).click();
    await page.getByText('hr_getAccessToken (before authentication)').waitFor();
    // Each call of this tenant asks for a token first: the token endpoint answers the rule's 502, once.
    await assert.rejects(tenant.call('GET', '/organizations/paris'), /token request failed: 502/);

    await page.getByLabel('Snapshot name').fill('baseline');
    await page.getByRole('button', { name: 'Save a snapshot' }).click();
    await page.getByRole('button', { name: 'Restore baseline' }).waitFor();
    assert.equal((await tenant.call('PUT', '/organizations/lyon', { name: 'Lyon' })).status, 201);
    await page.getByRole('button', { name: 'Restore baseline' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('replaced by the snapshot').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    assert.equal((await tenant.call('GET', '/organizations/lyon')).status, 200, 'cancelled: nothing restored');
    await page.getByRole('button', { name: 'Restore baseline' }).click();
    await dialog.getByRole('button', { name: 'Restore' }).click();
    await page.getByText(/^Restored baseline/).waitFor();
    assert.equal((await tenant.call('GET', '/organizations/lyon')).status, 404, 'restored');
    assert.equal((await tenant.call('GET', '/organizations/paris')).status, 200);
    assert.deepEqual(unexpected(recorded), []);
    assert.deepEqual(recorded.outside(origin), [], 'no request outside Atrium');
  });

  it("lists the validation proxy's departures per operation, with the way to start it when there are none", async () => {
    const { page } = await newPage();
    await signIn(page);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Proxy departures' }).click();
    await page.getByRole('heading', { name: 'Proxy departures' }).waitFor();
    await page.getByTestId('proxy-empty').getByText('atrium proxy --target').waitFor();
    // The proxy writes its journal in the server's data directory, as `atrium proxy` does.
    const store = new DepartureStore(server.config.proxyJournal);
    const departure = { direction: 'response', kind: 'wrong_type', field: '/body/id', expected: 'string' } as const;
    const example = { method: 'GET', path: '/api/v2/client/organizations/paris', status: 200 };
    store.record('hr_organizations_retrieve', 'hr', [{ ...departure, actual: 'integer' }], example, Date.now());
    store.close();
    await page.getByRole('button', { name: 'Refresh' }).click();
    const operation = page.getByRole('region', { name: 'hr_organizations_retrieve' });
    const row = operation.getByRole('row').filter({ hasText: '/body/id' });
    await row.waitFor();
    assert.deepEqual((await row.getByRole('cell').allInnerTexts()).slice(0, 5), [
      'response wrong_type',
      '/body/id',
      'string',
      'integer',
      '1',
    ]);
    assert.equal(await page.getByTestId('proxy-empty').count(), 0);
  });

  it('has no serious or critical accessibility violations, at 1280 and 390 px, light and dark', async () => {
    const tenant = await hrTenant(`Axe ${Date.now()}`);
    await tenant.call('GET', '/organizations');
    // A near miss, newest: the log's mark and the call opened below show it.
    await tenant.call('GET', '/organisations');
    await server.app.services.requestLog.flush();
    const found: string[] = [];
    for (const [width, dark] of [
      [1280, false],
      [390, false],
      [1280, true],
      [390, true],
    ] as const) {
      const recorded = await newPage({ width, dark, axe: true });
      const { page } = recorded;
      await page.goto(`${origin}/console/`);
      await page.getByLabel('Operator token').waitFor();
      for (const v of await seriousViolations(page, { coloursOnly: dark }))
        found.push(`${width}${dark ? ' dark' : ''} sign-in: ${v}`);
      await page.getByLabel('Operator token').fill(token);
      await page.getByRole('button', { name: 'Sign in' }).click();
      // Signed in (the session cookie set) before going elsewhere: a page loaded earlier would be the sign-in form.
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      for (const [path, ready] of [
        ['/console/tenants', 'Tenants'],
        [`/console/tenants/hr/${tenant.id}`, 'Clock'],
        [`/console/tenants/hr/${tenant.id}/log`, 'Request log'],
        [`/console/tenants/hr/${tenant.id}/report`, 'Integration report'],
        ['/console/proxy', 'Proxy departures'],
      ] as const) {
        await page.goto(`${origin}${path}`);
        await page.getByRole('heading', { name: ready, exact: true }).waitFor();
        for (const v of await seriousViolations(page, { coloursOnly: dark }))
          found.push(`${width}${dark ? ' dark' : ''} ${path}: ${v}`);
        const overflow = (await page.evaluate(
          'document.documentElement.scrollWidth - document.documentElement.clientWidth',
        )) as number;
        assert.ok(overflow <= 1, `${width} px ${path}: the page scrolls sideways by ${overflow} px`);
        if (path.endsWith('/log')) {
          // A call opened: its detail, its caller by name.
          await page
            .getByRole('button', { name: /^Open #/ })
            .first()
            .click();
          await page.getByTestId('caller').waitFor();
          await page.getByTestId('near-miss-detail').waitFor();
          for (const v of await seriousViolations(page, { coloursOnly: dark }))
            found.push(`${width}${dark ? ' dark' : ''} a call: ${v}`);
        }
      }
      assert.deepEqual(recorded.outside(origin), [], `${width} px: no request outside Atrium`);
      const background = (await page.evaluate('getComputedStyle(document.body).backgroundColor')) as string;
      const [r = 0] = (background.match(/\d+/g) ?? []).map(Number);
      assert.equal(r < 60, dark, `${width} ${dark ? 'dark' : 'light'}: background ${background}`);
    }
    assert.deepEqual(found, []);
  });
});
