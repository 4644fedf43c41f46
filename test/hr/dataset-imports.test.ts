/**
 * Dataset imports (issue 19, reference §5.2): a CSV replaces every value of a dataset, all or nothing, in the
 * background. The CSV reading takes `;` or `,`, quoting, a byte-order mark and CRLF, and refuses what is not UTF-8;
 * the report lists errors and warnings by line, and is 403 `report_file_not_ready` until the import ends.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { spendPendingJobs } from '../support/jobs.js';
import { upload } from '../support/people-assist.js';

type Body = Record<string, unknown>;

interface ErrorBody {
  code: string;
  message: string;
  errors?: { field: string; code: string; message: string }[];
}

interface Import {
  id: string;
  dataset_id: string;
  filename: string;
  status: string;
  result: string | null;
  total_dimensions_count: number;
  total_values_count: number;
  stats: Record<string, number>;
  [key: string]: unknown;
}

async function json<T = Body>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return (text ? JSON.parse(text) : undefined) as T;
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const names = (en: string) => [{ language_code: 'en-us', value: en }];

for (const dialect of dialects()) {
  describe(`dataset imports (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;

    const values = async (dataset = 'geo') =>
      (
        await json<{ id: string; name: string }[]>(
          await hr.call('GET', `/datasets/${dataset}/values?per_page=1000`),
          200,
        )
      )
        .map((v) => `${v.id}=${v.name}`)
        .sort();

    /** Uploads `csv`, imports it into `dataset`, waits for the end; answers the import. */
    async function importCsv(csv: Buffer | string, dataset = 'geo', filename = 'geo.csv'): Promise<Import> {
      const bytes = typeof csv === 'string' ? Buffer.from(csv) : csv;
      const uploadId = await upload(server, hr, bytes, filename);
      const created = await json<Import>(
        await hr.call('POST', '/dataset_imports', { dataset_id: dataset, upload_id: uploadId }),
        201,
      );
      assert.equal(created.dataset_id, dataset);
      assert.equal(created.filename, filename);
      let found = created;
      await until(async () => {
        found = await json<Import>(await hr.call('GET', `/dataset_imports/${created.id}`), 200);
        return found.status === 'finished';
      }, 'the import to finish');
      return found;
    }

    const report = async (id: string) => {
      const res = await hr.call('GET', `/dataset_imports/${id}/report`);
      const text = await res.text();
      assert.equal(res.status, 200, text);
      assert.match(res.headers.get('content-type') ?? '', /^text\/csv/);
      return text.trim().split(/\r?\n/);
    };

    before(async () => {
      server = await startServer(dialect, { ATRIUM_JOB_POLL_MS: '50' });
      hr = await hrCaller(server);
      other = await hrCaller(server);
      await json(
        await hr.call('PUT', '/datasets/geo', {
          localized_names: names('Geo'),
          dimensions: [
            { id: 'countries', localized_names: [] },
            { id: 'cities', localized_names: [] },
          ],
        }),
        201,
      );
      for (const [id, name] of [
        ['uk', 'UK'],
        ['uk.london', 'Old London'],
        ['de', 'Germany'],
      ]) {
        await json(await hr.call('PUT', `/datasets/geo/values/${id}`, { localized_names: names(name as string) }), 201);
      }
    });
    after(() => server.close());

    it('replaces every value: `;`, quotes, a BOM and CRLF; counts created, updated and deleted', async () => {
      const csv =
        '\uFEFFcountries;countries:en-us;countries:fr-fr;cities;cities:en-us;notes\r\n' +
        'uk;United Kingdom;Royaume-Uni;london;"London; the City";\r\n' +
        'uk;United Kingdom;Royaume-Uni;leeds;Leeds;x\r\n' +
        'fr;France;France;;;\r\n' +
        'fr;France;France;paris;"Paris ""Lutèce""";\r\n';
      const done = await importCsv(csv);
      assert.equal(done.result, 'success', JSON.stringify(done));
      assert.equal(done.status, 'finished');
      assert.equal(done.total_dimensions_count, 2);
      assert.equal(done.total_values_count, 5);
      assert.deepEqual(done.stats, {
        rows: 4,
        global_errors: 0,
        row_errors: 0,
        warnings: 1,
        internal_errors: 0,
        dimensions_created: 0,
        values_created: 3,
        values_updated: 2,
        values_deleted: 1,
      });
      assert.deepEqual(await values(), [
        'fr.paris=Paris "Lutèce"',
        'fr=France',
        'uk.leeds=Leeds',
        'uk.london=London; the City',
        'uk=United Kingdom',
      ]);
      const uk = await json<{ localized_names: unknown }>(await hr.call('GET', '/datasets/geo/values/uk'), 200);
      assert.deepEqual(uk.localized_names, [
        { language_code: 'en-us', value: 'United Kingdom' },
        { language_code: 'fr-fr', value: 'Royaume-Uni' },
      ]);
      const dataset = await json<Body>(await hr.call('GET', '/datasets/geo'), 200);
      assert.equal(dataset.values_count, 5);
      assert.equal(dataset.last_import_status, 'finished');
      assert.equal(dataset.last_import_result, 'success');
      // The unknown column is a warning on the header; the source is the file, byte for byte.
      assert.deepEqual(await report(done.id), [
        'type,line,field,code,message',
        'warning,0,notes,unknown_column,"Column ""notes"" is neither a dimension of the dataset (countries, cities) nor a dimension\'s name in a language (countries:en-us); it is ignored."',
      ]);
      const source = await hr.call('GET', `/dataset_imports/${done.id}/source`);
      assert.equal(source.status, 200);
      assert.deepEqual(Buffer.from(await source.arrayBuffer()), Buffer.from(csv));
    });

    it('a value read again keeps its first names, adds those in new languages, and warns when one differs', async () => {
      const csv =
        'countries;countries:en-us;countries:fr-fr;cities\n' +
        'uk;United Kingdom;;london\n' +
        'uk;Britain;Royaume-Uni;leeds\n' +
        'uk;;;york\n';
      const done = await importCsv(csv);
      assert.equal(done.result, 'success', JSON.stringify(done));
      assert.equal(done.total_values_count, 4);
      const uk = await json<{ localized_names: unknown }>(await hr.call('GET', '/datasets/geo/values/uk'), 200);
      assert.deepEqual(uk.localized_names, [
        { language_code: 'en-us', value: 'United Kingdom' },
        { language_code: 'fr-fr', value: 'Royaume-Uni' },
      ]);
      assert.deepEqual(await report(done.id), [
        'type,line,field,code,message',
        'warning,2,countries:en-us,names_differ,"""uk"" was named ""United Kingdom"" on an earlier row; that name is kept."',
      ]);
      assert.deepEqual(await values(), ['uk.leeds=leeds', 'uk.london=london', 'uk.york=york', 'uk=United Kingdom']);
    });

    it('takes `,` as the separator when the header has no `;`', async () => {
      const done = await importCsv('countries,countries:en-us\nes,"Spain, Kingdom of"\nit,Italy\n');
      assert.equal(done.result, 'success');
      assert.deepEqual(await values(), ['es=Spain, Kingdom of', 'it=Italy']);
    });

    it('is all or nothing: a broken row and a bad code fail the import and change nothing', async () => {
      const beforeValues = await values();
      const done = await importCsv('countries;cities\r\npt;lisbon\r\npt\r\nno way;oslo\r\n;orphan\r\npt;porto\r\n');
      assert.equal(done.result, 'error');
      assert.equal(done.stats.rows, 5);
      assert.equal(done.stats.row_errors, 3);
      assert.equal(done.stats.values_created, 0);
      assert.deepEqual(await values(), beforeValues, 'the values are the ones before the import');
      const dataset = await json<Body>(await hr.call('GET', '/datasets/geo'), 200);
      assert.equal(dataset.last_import_result, 'error');
      assert.equal(dataset.values_count, beforeValues.length);
      assert.deepEqual(await report(done.id), [
        'type,line,field,code,message',
        'row_error,2,,invalid_row,"Expected 2 cells, as the header, found 1."',
        'row_error,3,countries,invalid_format,"""no way"" is not a code: 1 to 100 letters, digits, _ or -."',
        'row_error,4,countries,required,"A value of ""countries"" is needed above ""orphan""."',
      ]);
    });

    it('refuses a file that is not UTF-8, or not CSV, as a whole', async () => {
      const latin1 = await importCsv(
        Buffer.concat([Buffer.from('countries;countries:fr-fr\nch;'), Buffer.from([0xe9]), Buffer.from('\n')]),
      );
      assert.equal(latin1.result, 'error');
      assert.equal(latin1.stats.global_errors, 1);
      assert.match((await report(latin1.id))[1] ?? '', /^global_error,,,invalid_csv,"?The file is not UTF-8 text/);
      const unclosed = await importCsv('countries;countries:en-us\nch;"Switzerland\nat;Austria\n');
      assert.equal(unclosed.result, 'error');
      assert.match(
        (await report(unclosed.id))[1] ?? '',
        /^global_error,1,,invalid_csv,"?The file is not valid CSV: Quote Not Closed/,
      );
      const noDimension = await importCsv('planets;moons\nearth;moon\n');
      assert.equal(noDimension.result, 'error');
      assert.match(
        (await report(noDimension.id)).join('\n'),
        /global_error,0,,required,"The header names no dimension/,
      );
      const empty = await importCsv('\r\n\r\n');
      assert.equal(empty.result, 'error');
      assert.match((await report(empty.id))[1] ?? '', /^global_error,,,empty,/);
    });

    it('the report is 403 report_file_not_ready until the import ends', async () => {
      await server.app.services.jobs.stop();
      try {
        const uploadId = await upload(server, hr, Buffer.from('countries\nse\n'), 'se.csv');
        const created = await json<Import>(
          await hr.call('POST', '/dataset_imports', { dataset_id: 'geo', upload_id: uploadId }),
          201,
        );
        assert.equal(created.status, 'queued');
        assert.equal(created.result, null);
        const early = await json<ErrorBody>(await hr.call('GET', `/dataset_imports/${created.id}/report`), 403);
        assert.equal(early.code, 'report_file_not_ready');
        assert.equal((await json<Body>(await hr.call('GET', '/datasets/geo'), 200)).last_import_status, 'queued');
      } finally {
        server.app.services.jobs.start();
      }
      await until(async () => (await values()).join() === 'se=se', 'the queued import to run');
    });

    it('refuses an unknown dataset, an unknown or used upload; lists the client’s own imports only', async () => {
      const uploadId = await upload(server, hr, Buffer.from('countries\nno\n'), 'no.csv');
      const nowhere = await json<ErrorBody>(
        await hr.call('POST', '/dataset_imports', { dataset_id: 'nowhere', upload_id: uploadId }),
        422,
      );
      assert.deepEqual(
        nowhere.errors?.map((e) => [e.field, e.code]),
        [['dataset_id', 'not_found']],
      );
      const theirs = await json<ErrorBody>(
        await other.call('POST', '/dataset_imports', { dataset_id: 'geo', upload_id: uploadId }),
        422,
      );
      assert.deepEqual(
        theirs.errors?.map((e) => [e.field, e.code]),
        [['dataset_id', 'not_found']],
      );
      await json(
        await other.call('PUT', '/datasets/geo', {
          localized_names: names('Theirs'),
          dimensions: [{ id: 'countries', localized_names: [] }],
        }),
        201,
      );
      const notTheirUpload = await json<ErrorBody>(
        await other.call('POST', '/dataset_imports', { dataset_id: 'geo', upload_id: uploadId }),
        422,
      );
      assert.deepEqual(
        notTheirUpload.errors?.map((e) => [e.field, e.code]),
        [['upload_id', 'not_found']],
      );
      await json(await hr.call('POST', '/dataset_imports', { dataset_id: 'geo', upload_id: uploadId }), 201);
      const used = await json<ErrorBody>(
        await hr.call('POST', '/dataset_imports', { dataset_id: 'geo', upload_id: uploadId }),
        422,
      );
      assert.deepEqual(
        used.errors?.map((e) => [e.field, e.code]),
        [['upload_id', 'already_used']],
      );

      const mine = await json<Import[]>(await hr.call('GET', '/dataset_imports?dataset_id=geo&per_page=100'), 200);
      assert.ok(mine.length >= 8);
      assert.deepEqual(await json(await other.call('GET', '/dataset_imports'), 200), []);
      await json(await other.call('GET', `/dataset_imports/${mine[0]?.id}`), 404);
      await json(await other.call('GET', `/dataset_imports/${mine[0]?.id}/source`), 404);
      await json(await other.call('GET', `/dataset_imports/${mine[0]?.id}/report`), 404);
      // The other client's dataset of the same id is untouched by this client's imports.
      assert.equal((await json<Body>(await other.call('GET', '/datasets/geo'), 200)).values_count, 0);
    });
    it('an import whose job runs out of attempts ends in error with a job_failed entry, the values unchanged', async () => {
      // The imports earlier tests queued have run: their values are what this one must leave alone.
      const busy = () =>
        server.app.database.db
          .selectFrom('jobs')
          .select('id')
          .where('queue', '=', 'hr.dataset_import')
          .where('status', 'in', ['pending', 'running'])
          .execute();
      await until(async () => (await busy()).length === 0, 'the earlier imports to end');
      const before = await values();
      await server.app.services.jobs.stop();
      let id = '';
      try {
        const uploadId = await upload(server, hr, Buffer.from('countries\nfi\n'), 'fi.csv');
        id = (
          await json<Import>(await hr.call('POST', '/dataset_imports', { dataset_id: 'geo', upload_id: uploadId }), 201)
        ).id;
        assert.equal(await spendPendingJobs(server.app.database.db, 'hr.dataset_import'), 1);
      } finally {
        server.app.services.jobs.start();
      }
      let ended: Import | undefined;
      await until(async () => {
        ended = await json<Import>(await hr.call('GET', `/dataset_imports/${id}`), 200);
        return ended.status === 'finished';
      }, 'the import to end');
      assert.equal(ended?.result, 'error');
      assert.equal(ended?.stats.internal_errors, 1);
      assert.match((await report(id)).join('\n'), /internal_error,,,job_failed,/);
      assert.deepEqual(await values(), before);
      const dataset = await json<Body>(await hr.call('GET', '/datasets/geo'), 200);
      assert.deepEqual([dataset.last_import_status, dataset.last_import_result], ['finished', 'error']);
    });
  });
}
