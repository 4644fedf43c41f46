/**
 * The console (`/console`) in a real browser (Debian's Chromium through playwright-core; test/support/browser.ts):
 * signing in and out, CSRF refused, tenants and their credentials (a secret shown once), the live request log, the
 * clock, fault rules and snapshots with their effect seen by the API, and axe-core's accessibility checks at 1280
 * and 390 px wide, in light and dark mode. Every page is reached by a name that is not loopback; nothing is loaded
 * from elsewhere.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
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

  /** A page of its own (no cookie shared), signed in when asked, at a width. */
  const newPage = async (options: PageLook = {}) => {
    const recorded = await openPage(browser, lookOf(options));
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
    return { id: tenant.id, call };
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
    assert.deepEqual(unexpected(recorded), []);
    assert.deepEqual(recorded.outside(origin), [], 'no request outside Atrium');
  });

  it('sets the clock and adds a fault rule, and the API shows both; saves and restores a snapshot', async () => {
    const tenant = await hrTenant(`Controls ${Date.now()}`);
    assert.equal((await tenant.call('PUT', '/organizations/paris', { name: 'Paris' })).status, 201);
    const recorded = await newPage();
    const { page } = recorded;
    await signIn(page, `/console/tenants/hr/${tenant.id}`);
    await page.getByLabel('Time', { exact: true }).fill('2031-02-01T09:00');
    await page.getByRole('button', { name: 'Set the clock' }).click();
    await page.getByTestId('clock-now').getByText('(frozen)').waitFor();
    const clocked = await tenant.call('GET', '/organizations/paris');
    assert.match(clocked.headers.get('x-atrium-clock') ?? '', /; frozen$/);

    await page.getByLabel('Operation id (empty: every call)').fill('hr_organizations_list');
    await page.getByLabel('Times (empty: until deleted)').fill('1');
    await page.getByRole('button', { name: 'Add the rule' }).click();
    await page.getByText('answers 503').waitFor();
    const faulted = await tenant.call('GET', '/organizations');
    assert.equal(faulted.status, 503);
    assert.ok(faulted.headers.get('x-atrium-fault'));

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

  it('has no serious or critical accessibility violations, at 1280 and 390 px, light and dark', async () => {
    const tenant = await hrTenant(`Axe ${Date.now()}`);
    await tenant.call('GET', '/organizations');
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
      for (const v of await seriousViolations(page)) found.push(`${width}${dark ? ' dark' : ''} sign-in: ${v}`);
      await page.getByLabel('Operator token').fill(token);
      await page.getByRole('button', { name: 'Sign in' }).click();
      // Signed in (the session cookie set) before going elsewhere: a page loaded earlier would be the sign-in form.
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      for (const [path, ready] of [
        ['/console/tenants', 'Tenants'],
        [`/console/tenants/hr/${tenant.id}`, 'Clock'],
        [`/console/tenants/hr/${tenant.id}/log`, 'Request log'],
        [`/console/tenants/hr/${tenant.id}/report`, 'Integration report'],
      ] as const) {
        await page.goto(`${origin}${path}`);
        await page.getByRole('heading', { name: ready, exact: true }).waitFor();
        for (const v of await seriousViolations(page)) found.push(`${width}${dark ? ' dark' : ''} ${path}: ${v}`);
        const overflow = (await page.evaluate(
          'document.documentElement.scrollWidth - document.documentElement.clientWidth',
        )) as number;
        assert.ok(overflow <= 1, `${width} px ${path}: the page scrolls sideways by ${overflow} px`);
      }
      assert.deepEqual(recorded.outside(origin), [], `${width} px: no request outside Atrium`);
      const background = (await page.evaluate('getComputedStyle(document.body).backgroundColor')) as string;
      const [r = 0] = (background.match(/\d+/g) ?? []).map(Number);
      assert.equal(r < 60, dark, `${width} ${dark ? 'dark' : 'light'}: background ${background}`);
    }
    assert.deepEqual(found, []);
  });
});
