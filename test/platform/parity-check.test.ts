/**
 * What the parity check refuses besides a stale page (scripts/parity.ts --check; docs/development.md, "Parity"):
 * a departure whose docs line is not where the manifest says, and a served operation that no test calls. And the
 * record of which test calls which operation (test/support/parity-hits.ts): a call refused before the operation
 * ran does not count.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { departureProblems, headingAnchor, untested } from '../../src/platform/parity/check.js';
import { HITS_ENV, readHits } from '../../src/platform/parity/hits.js';
import { loadManifest, type Manifest } from '../../src/platform/parity/manifest.js';
import { parityReport, type ServedOperation } from '../../src/platform/parity/report.js';
import { hrCaller, startServer, type TestServer } from '../support/harness.js';
import { testFileOf, writeParityHits } from '../support/parity-hits.js';
import { ROOT } from '../support/root.js';

const copy = (): Manifest => structuredClone(loadManifest());

describe('departures and their docs lines', () => {
  it('every departure of the manifest has its docs line', () => {
    assert.deepEqual(departureProblems(loadManifest(), ROOT), []);
    const count = Object.values(loadManifest().apis).reduce((n, a) => n + Object.keys(a.departures).length, 0);
    assert.ok(count >= 10, `${count} operations with departures`);
  });

  it('anchors are GitHub’s', () => {
    assert.equal(headingAnchor('Employees (reference §3a)'), 'employees-reference-3a');
    assert.equal(
      headingAnchor('Bulk calls (`/employees/bulk`, `/users/bulk`; reference §3a.7, §5.3)'),
      'bulk-calls-employeesbulk-usersbulk-reference-3a7-53',
    );
    assert.equal(headingAnchor('Page counts (`page_count`, `X-Page-Count`)'), 'page-counts-page_count-x-page-count');
  });

  it('refuses a missing file, a missing heading, a phrase the section does not say, an unknown operation', () => {
    const manifest = copy();
    const [first] = manifest.apis.hr.departures['POST /employees'] ?? [];
    assert.ok(first, 'the departure of POST /employees');
    manifest.apis.hr.departures['POST /employees'] = [
      { ...first, docs: 'docs/no-such-file.md#employees-reference-3a' },
      { ...first, docs: 'docs/hr-api.md#no-such-heading' },
      // The phrase is in the file, but in another section.
      { ...first, docs: 'docs/hr-api.md#tokens' },
    ];
    manifest.apis.academy.departures['GET /no_such_route'] = [first];
    assert.deepEqual(departureProblems(manifest, ROOT), [
      'hr POST /employees: docs/no-such-file.md does not exist',
      'hr POST /employees: docs/hr-api.md#no-such-heading: no such heading',
      'hr POST /employees: docs/hr-api.md#tokens does not say "`POST /employees` answers `201 Created`"',
      'academy GET /no_such_route: a departure of no operation',
    ]);
  });
});

describe('served operations without a test', () => {
  it('are named, of the manifest and beyond it; an operation not served is not', () => {
    const manifest = copy();
    manifest.apis.hr.groups = [{ heading: 'Platform: Organizations', operations: ['GET /organizations', 'GET /x'] }];
    manifest.apis.academy.groups = [];
    const served: ServedOperation[] = [
      { api: 'hr', method: 'GET', path: '/api/v2/client/organizations', operationId: 'a', extension: false },
      { api: 'hr', method: 'POST', path: '/api/v2/client/extra', operationId: 'b', extension: true },
    ];
    const generated = { date: '2026-01-01', commit: null };
    const none = parityReport(manifest, served, new Map(), generated);
    assert.deepEqual(untested(none), [
      'hr GET /organizations: served, and no test calls it',
      'hr POST /extra: served, and no test calls it',
    ]);
    assert.deepEqual(none.apis[0]?.areas, [{ area: 'Platform', operations: 2, served: 1, tested: 0, departures: 0 }]);
    const hits = new Map([
      ['a', ['test/hr/organizations.test.ts']],
      ['b', ['test/hr/extra.test.ts']],
    ]);
    const all = parityReport(manifest, served, hits, generated);
    assert.deepEqual(untested(all), []);
    assert.deepEqual(all.apis[0]?.beyond, { served: 1, tested: 1 });
  });
});

describe('the record of the calls a test file makes', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-parity-hits-'));
  let server: TestServer;

  before(async () => {
    process.env[HITS_ENV] = dir;
    server = await startServer('sqlite');
  });
  after(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('names the operations its servers answered, not those refused before they ran', async () => {
    const hr = await hrCaller(server);
    assert.equal((await hr.call('GET', '/organizations')).status, 200);
    const anonymous = await fetch(`${server.url}/api/v2/client/users`);
    assert.equal(anonymous.status, 401);
    writeParityHits(dir);
    const hits = readHits(dir);
    const me = 'test/platform/parity-check.test.ts';
    assert.deepEqual(hits.get('hr_organizations_list'), [me]);
    assert.deepEqual(hits.get('hr_getAccessToken'), [me]);
    assert.equal(hits.get('hr_users_list'), undefined);
  });

  it('names a test file by its source, from its compiled copy', () => {
    assert.equal(testFileOf(path.join(ROOT, '.build/test/hr/x.test.js')), 'test/hr/x.test.ts');
    assert.equal(testFileOf(path.join(ROOT, 'test/hr/x.test.ts')), 'test/hr/x.test.ts');
  });
});
