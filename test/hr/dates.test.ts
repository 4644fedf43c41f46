import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';

interface ErrorBody {
  code: string;
  message: string;
  errors?: { field: string; code: string; message: string }[];
}

const OUTPUT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;

function pad(n: number, width = 2): string {
  return String(Math.abs(n)).padStart(width, '0');
}

/**
 * Writes the instant `ms` as the wall time of the zone `offsetMinutes` (`Z` when `zone` says so), with an
 * optional fraction after `separator`: the spec's datetime forms, built independently of the server's parser.
 */
function datetime(
  ms: number,
  options: { offsetMinutes?: number; zulu?: boolean; fraction?: string; separator?: ',' | '.' } = {},
): string {
  const offset = options.offsetMinutes ?? 0;
  const d = new Date(ms + offset * 60_000);
  const wall =
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const fraction = options.fraction === undefined ? '' : `${options.separator ?? '.'}${options.fraction}`;
  const zone = options.zulu
    ? 'Z'
    : `${offset < 0 ? '-' : '+'}${pad(Math.trunc(offset / 60))}:${pad(Math.abs(offset) % 60)}`;
  return `${wall}${fraction}${zone}`;
}

for (const dialect of dialects()) {
  describe(`HR date forms over HTTP (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    /** The employee's created_at as sent (whole seconds, UTC); the stored instant is within [at, at + 1 s). */
    let at: number;

    const search = async (body: Record<string, unknown>): Promise<string[]> => {
      const res = await hr.call('POST', '/employees/search', { per_page: 100, ...body });
      const out = (await res.json()) as { firstname: string }[] | ErrorBody;
      assert.equal(res.status, 200, JSON.stringify(out));
      return (out as { firstname: string }[]).map((e) => e.firstname);
    };

    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      assert.equal((await hr.call('PUT', '/organizations/paris', { name: 'Paris' })).status, 201);
      const res = await hr.call('POST', '/employees', {
        firstname: 'Dated',
        lastname: 'Person',
        email: 'dated@example.com',
        birth_date: '1990-02-28',
        registration_references: [{ organization_id: 'paris', employee_number: 'D1' }],
      });
      const employee = (await res.json()) as { created_at: string; birth_date: string };
      assert.equal(res.status, 201, JSON.stringify(employee));
      assert.match(employee.created_at, OUTPUT, 'datetimes go out in UTC as ±hh:mi, without a fraction');
      assert.equal(employee.birth_date, '1990-02-28');
      at = Date.parse(employee.created_at);
      assert.ok(Number.isFinite(at), `created_at parses: ${employee.created_at}`);
    });
    after(() => server.close());

    it('accepts a datetime with a comma fraction and an offset', async () => {
      const since = datetime(at, { offsetMinutes: 120, fraction: '000', separator: ',' });
      assert.match(since, /,000\+02:00$/);
      assert.deepEqual(await search({ created_at_since: since }), ['Dated']);
      const later = datetime(at + 1000, { offsetMinutes: -330, fraction: '0', separator: ',' });
      assert.match(later, /,0-05:30$/);
      assert.deepEqual(await search({ created_at_since: later }), [], 'one second later excludes it');
    });

    it('accepts a datetime with a dot fraction and Z', async () => {
      const until = datetime(at, { zulu: true, fraction: '999', separator: '.' });
      assert.match(until, /\.999Z$/);
      assert.deepEqual(await search({ created_at_until: until }), ['Dated']);
      const before = datetime(at - 1, { zulu: true, fraction: '999', separator: '.' });
      assert.deepEqual(await search({ created_at_until: before }), [], 'a millisecond earlier excludes it');
    });

    it('accepts a datetime without a fraction, with Z or an offset, and a date', async () => {
      assert.deepEqual(await search({ created_at_since: datetime(at, { zulu: true }) }), ['Dated']);
      assert.deepEqual(await search({ created_at_since: datetime(at, { offsetMinutes: 0 }) }), ['Dated']);
      assert.deepEqual(await search({ created_at_since: datetime(at, { offsetMinutes: 60 }) }), ['Dated']);
      const day = new Date(at).toISOString().slice(0, 10);
      assert.deepEqual(await search({ created_at_since: day }), ['Dated']);
      const nextDay = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      assert.deepEqual(await search({ created_at_since: nextDay }), []);
    });

    it('an invalid date or datetime is a 422 field error', async () => {
      for (const value of [
        '2024-02-30',
        '2023-02-29T10:00:00+00:00',
        '2024-01-01T24:00:00Z',
        '2024-01-01T10:00:00,5',
        '2024-01-01T10:00:00+25:00',
        '2024-01-01 10:00:00Z',
      ]) {
        const res = await hr.call('POST', '/employees/search', { created_at_since: value });
        const body = (await res.json()) as ErrorBody;
        assert.equal(res.status, 422, `${value}: ${JSON.stringify(body)}`);
        assert.equal(body.code, 'validation_error');
        assert.deepEqual(
          body.errors?.map((e) => e.field),
          ['created_at_since'],
          value,
        );
      }
      // A schema-checked date field names the calendar error.
      const res = await hr.call('POST', '/employees', {
        firstname: 'Never',
        lastname: 'Born',
        email: 'never@example.com',
        birth_date: '2023-02-29',
        registration_references: [{ organization_id: 'paris', employee_number: 'D2' }],
      });
      const body = (await res.json()) as ErrorBody;
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.deepEqual(
        body.errors?.map((e) => [e.field, e.code]),
        [['birth_date', 'invalid_date']],
      );
      assert.deepEqual(await search({}), ['Dated'], 'nothing was created');
    });
  });
}
