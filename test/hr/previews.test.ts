/**
 * Previews (issue 20, "Renditions"; docs/hr-api.md, "Previews"): a PNG of one page of a PDF or of an image, for
 * employee and company documents, signature processes and a request's attachments, form files and comment
 * attachments (with `HEAD …/preview` and its `Page-Count`). Each PNG is decoded and looked at; renditions are cached
 * by the file's checksum, page, width and crop; bad pages and sizes, other types, damaged files and a hostile PDF
 * are refused with their 4xx; another tenant's objects are 404; the sweep forgets the renditions of deleted files.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { PDFDocument } from '@cantoo/pdf-lib';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { drawingBomb, markedPdf } from '../support/pdf.js';
import { category, employee, json, simpleForm, upload } from '../support/people-assist.js';

interface ErrorBody {
  code: string;
  message: string;
  errors?: { field: string; code: string }[];
}

/** A 640 × 480 JPEG: red on its left half, blue on its right. */
async function jpeg(): Promise<Buffer> {
  const canvas = createCanvas(640, 480);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ff0000';
  context.fillRect(0, 0, 320, 480);
  context.fillStyle = '#0000ff';
  context.fillRect(320, 0, 320, 480);
  return Buffer.from(await canvas.encode('jpeg', 95));
}

/** A decoded PNG: its size, and the colour of a pixel. */
async function decode(res: Response) {
  assert.equal(res.status, 200, res.status === 200 ? '' : await res.clone().text());
  assert.equal(res.headers.get('content-type'), 'image/png');
  const bytes = Buffer.from(await res.arrayBuffer());
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG signature');
  const image = await loadImage(bytes);
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  return {
    bytes,
    width: image.width,
    height: image.height,
    pixel: (x: number, y: number): [number, number, number] => {
      const [r = 0, g = 0, b = 0] = context.getImageData(x, y, 1, 1).data;
      return [r, g, b];
    },
  };
}

const dark = (rgb: number[]) => rgb.every((c) => c < 60);
const light = (rgb: number[]) => rgb.every((c) => c > 200);

for (const dialect of dialects()) {
  describe(`previews (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;
    let employeeId: string;
    let agent: string;
    let pdfDoc: string;
    let jpegDoc: string;

    const get = (path: string, caller = hr, method = 'GET') =>
      fetch(`${server.url}/api/v2/client${path}`, { method, headers: { authorization: `Bearer ${caller.token}` } });
    const error = async (res: Response, status: number) => {
      const body = (await res.json()) as ErrorBody;
      assert.equal(res.status, status, JSON.stringify(body));
      return body;
    };
    const document = async (kind: 'employee' | 'company', data: Buffer, filename: string): Promise<string> => {
      const file_id = await upload(server, hr, data, filename);
      const body =
        kind === 'employee'
          ? { employee_id: employeeId, document_type_id: 'contract' }
          : { organization_ids: ['hq'], document_type_id: 'policy' };
      return (
        await json<{ id: string }>(
          await hr.call('POST', `/${kind}_documents`, { ...body, uploaded_file: { filename, file_id } }),
          201,
        )
      ).id;
    };
    const renditionRows = async () =>
      server.app.database.db.selectFrom('renditions').selectAll().orderBy('created_at').execute();

    before(async () => {
      // The hostile PDF runs into this limit; an ordinary render stays far below it even on a loaded machine (at
      // 4 s, two renders of a 3-page PDF timed out while five suites ran on two cores).
      server = await startServer(dialect, { ATRIUM_RATE_LIMIT: '0', ATRIUM_RENDER_TIMEOUT_MS: '8000' });
      hr = await hrCaller(server);
      other = await hrCaller(server);
      assert.equal((await hr.call('PUT', '/organizations/hq', { name: 'HQ' })).status, 201);
      employeeId = await employee(hr, {
        firstname: 'Ada',
        lastname: 'Lovelace',
        registration_references: [{ organization_id: 'hq', employee_number: '0001' }],
      });
      agent = (
        await json<{ id: string }>(
          await hr.call('POST', '/users', { firstname: 'Hedy', lastname: 'Lamarr', email: 'hedy@example.com' }),
          201,
        )
      ).id;
      for (const [kind, id] of [
        ['employee', 'contract'],
        ['company', 'policy'],
      ] as const) {
        const res = await hr.call('PUT', `/${kind}_document_types/${id}`, {
          localized_labels: [{ language_code: 'en', value: id }],
        });
        assert.equal(res.status, 201, await res.text());
      }
      pdfDoc = await document('employee', await markedPdf(3, 2), 'contract.pdf');
      jpegDoc = await document('company', await jpeg(), 'badge.jpg');
    });
    after(() => server.close());

    it('renders each page of a 3-page PDF at the asked size, inline, and caches it by checksum, page and size', async () => {
      const first = await decode(await get(`/employee_documents/${pdfDoc}/preview`));
      assert.equal(first.width, 800, 'normal: 800 px wide');
      assert.equal(first.height, Math.round((792 * 800) / 612));
      assert.ok(light(first.pixel(90, 90)), `page 1 has no square: ${first.pixel(90, 90)}`);
      const second = await decode(await get(`/employee_documents/${pdfDoc}/preview?page=2`));
      assert.ok(dark(second.pixel(90, 90)), `page 2 has its black square: ${second.pixel(90, 90)}`);
      assert.ok(light(second.pixel(400, 600)), 'and is white elsewhere');
      const small = await decode(await get(`/employee_documents/${pdfDoc}/preview?page=2&size=small`));
      assert.deepEqual([small.width, small.height], [300, Math.round((792 * 300) / 612)]);
      assert.ok(dark(small.pixel(34, 34)), 'the square, scaled');
      const large = await decode(await get(`/employee_documents/${pdfDoc}/preview?page=3&size=large`));
      assert.equal(large.width, 1600);

      const res = await get(`/employee_documents/${pdfDoc}/preview?page=2`);
      assert.match(res.headers.get('content-disposition') ?? '', /^inline; filename="contract-page-2\.png"/);
      const again = await decode(res);
      assert.deepEqual(again.bytes, second.bytes, 'the cached rendition: the same bytes');
      const sha256 = (
        await server.app.database.db
          .selectFrom('hr_documents')
          .select('sha256')
          .where('id', '=', pdfDoc)
          .executeTakeFirstOrThrow()
      ).sha256;
      const rows = (await renditionRows()).filter((r) => r.source_sha256 === sha256);
      assert.deepEqual(
        rows.map((r) => [r.page, r.width, r.crop]).sort(),
        [
          [1, 800, 10000],
          [2, 300, 10000],
          [2, 800, 10000],
          [3, 1600, 10000],
        ],
        'one rendition per page and size, however often it is asked',
      );
      const pages = await server.app.database.db
        .selectFrom('rendition_pages')
        .select('pages')
        .where('source_sha256', '=', sha256)
        .executeTakeFirstOrThrow();
      assert.equal(pages.pages, 3);
      const blob = await server.app.database.db
        .selectFrom('blobs')
        .select(['size', 'content_type'])
        .where('sha256', '=', rows.find((r) => r.page === 2 && r.width === 800)?.sha256 ?? '')
        .executeTakeFirstOrThrow();
      assert.deepEqual([Number(blob.size), blob.content_type], [second.bytes.length, 'image/png']);
      // A cached rendition is served without rendering: point page 3's at page 2's PNG, and page 3 shows page 2.
      const page2 = rows.find((r) => r.page === 2 && r.width === 800);
      const swap = (to: { sha256: string; size: number }) =>
        server.app.database.db
          .updateTable('renditions')
          .set(to)
          .where('source_sha256', '=', sha256)
          .where('page', '=', 3)
          .where('width', '=', 1600)
          .execute();
      const page3 = rows.find((r) => r.page === 3);
      assert.ok(page2 && page3);
      await swap({ sha256: page2.sha256, size: Number(page2.size) });
      const served = await decode(await get(`/employee_documents/${pdfDoc}/preview?page=3&size=large`));
      assert.deepEqual(served.bytes, second.bytes, 'read from the cache');
      await swap({ sha256: page3.sha256, size: Number(page3.size) });
    });

    it('refuses a page past the end, a bad page or size with 422, as the reference says', async () => {
      const past = await error(await get(`/employee_documents/${pdfDoc}/preview?page=4`), 422);
      assert.deepEqual(
        past.errors?.map((e) => [e.field, e.code]),
        [['page', 'out_of_range']],
      );
      assert.match(past.errors?.[0] ? JSON.stringify(past) : '', /3 pages/);
      // An unknown parameter is ignored, as everywhere on the HR API.
      assert.equal((await get(`/employee_documents/${pdfDoc}/preview?colour=red`)).status, 200);
      // page=8963873792 passed the pattern and reached PostgreSQL's integer column: a 500 (the fuzzer found it).
      for (const query of ['page=0', 'page=abc', 'page=1.5', 'page=8963873792', 'size=huge', 'size=']) {
        const res = await get(`/employee_documents/${pdfDoc}/preview?${query}`);
        assert.equal(res.status, 422, query);
        assert.equal(((await res.json()) as ErrorBody).code, 'validation_error', query);
      }
      // An unknown document is 404, whatever the page.
      assert.equal((await error(await get('/employee_documents/nope/preview'), 404)).code, 'not_found');
    });

    it('previews a JPEG: scaled down to the size, never up, its colours kept; one page', async () => {
      const small = await decode(await get(`/company_documents/${jpegDoc}/preview?size=small`));
      assert.deepEqual([small.width, small.height], [300, 225]);
      const red = small.pixel(60, 100);
      const blue = small.pixel(240, 100);
      assert.ok(red[0] > 200 && red[1] < 60 && red[2] < 60, `red: ${red}`);
      assert.ok(blue[2] > 200 && blue[0] < 60 && blue[1] < 60, `blue: ${blue}`);
      const normal = await decode(await get(`/company_documents/${jpegDoc}/preview`));
      assert.deepEqual([normal.width, normal.height], [640, 480], 'never enlarged');
      const past = await error(await get(`/company_documents/${jpegDoc}/preview?page=2`), 422);
      assert.equal(past.errors?.[0]?.field, 'page');
    });

    it('refuses another type of file, a damaged PDF and a hostile one with 422, and renders again afterwards', async () => {
      const text = await document('employee', Buffer.from('just words'), 'notes.txt');
      assert.equal((await error(await get(`/employee_documents/${text}/preview`), 422)).code, 'unsupported_file_type');
      const damaged = await document(
        'employee',
        Buffer.concat([Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n'), Buffer.alloc(2000, 7)]),
        'damaged.pdf',
      );
      assert.equal((await error(await get(`/employee_documents/${damaged}/preview`), 422)).code, 'unreadable_file');
      // A PNG declaring 100,000 × 100,000 pixels (40 GB decoded): refused from its header, never decoded.
      const ihdr = Buffer.alloc(25);
      ihdr.writeUInt32BE(13, 0);
      ihdr.write('IHDR', 4, 'latin1');
      ihdr.writeUInt32BE(100_000, 8);
      ihdr.writeUInt32BE(100_000, 12);
      ihdr.set([8, 6, 0, 0, 0], 16);
      const huge = Buffer.concat([
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
        ihdr,
        Buffer.alloc(64),
      ]);
      const giant = await document('company', huge, 'giant.png');
      assert.equal((await error(await get(`/company_documents/${giant}/preview`), 422)).code, 'unreadable_file');
      const hostile = await document('employee', drawingBomb(), 'hostile.pdf');
      const refused = await error(await get(`/employee_documents/${hostile}/preview`), 422);
      assert.equal(refused.code, 'rendering_limits');
      const { sha256 } = await server.app.database.db
        .selectFrom('hr_documents')
        .select('sha256')
        .where('id', '=', hostile)
        .executeTakeFirstOrThrow();
      assert.deepEqual(
        (await renditionRows()).filter((r) => r.source_sha256 === sha256),
        [],
        'no rendition of it is cached',
      );
      const count = await server.app.database.db
        .selectFrom('rendition_pages')
        .select('pages')
        .where('source_sha256', '=', sha256)
        .executeTakeFirst();
      assert.equal(count, undefined, 'nor that it cannot be read: a limit is not the file’s verdict');
      // The renderer was stopped and starts again for the next file.
      const fresh = await document('employee', await markedPdf(1, 1), 'fresh.pdf');
      const png = await decode(await get(`/employee_documents/${fresh}/preview`));
      assert.ok(dark(png.pixel(90, 90)));
      // The server answered meanwhile, and still does.
      assert.equal((await get(`/employee_documents/${fresh}`)).status, 200);
    });

    it('a request’s attachments, form files and comment attachments: HEAD gives Page-Count, GET a page, with a crop', async () => {
      const categoryId = await category(hr, 'Payroll');
      await simpleForm(hr, 'with-proof', categoryId, {
        formidable: {
          fields: [
            { slug: 'subject', label: 'Subject', type_id: 'text', required: true },
            { slug: 'proof', label: 'Proof', type_id: 'file' },
          ],
        },
      });
      const attachment = await upload(server, hr, await markedPdf(3, 2), 'scan.pdf');
      const proof = await upload(server, hr, await jpeg(), 'proof.jpg');
      const request = await json<{
        id: string;
        attachments: { id: string }[];
        form_files: { id: string }[];
      }>(
        await hr.call('POST', '/requests', {
          form_id: 'with-proof',
          employee_id: employeeId,
          form_data: [
            { field_id: 'subject', values: ['My payslip'] },
            { field_id: 'proof', values: [{ upload_id: proof }] },
          ],
          attachment_upload_ids: [attachment],
        }),
        201,
      );
      const attachmentId = request.attachments[0]?.id as string;
      const fileId = request.form_files[0]?.id as string;
      const comment = await json<{ id: string; attachments: { id: string }[] }>(
        await hr.call('POST', `/requests/${request.id}/comments`, {
          content: 'Here it is',
          creator_id: agent,
          attachment_upload_ids: [await upload(server, hr, await markedPdf(2, 1), 'reply.pdf')],
        }),
        200,
      );
      const commentAttachment = comment.attachments[0]?.id as string;
      const bases = {
        attachment: `/requests/${request.id}/attachments/${attachmentId}`,
        file: `/requests/${request.id}/files/${fileId}`,
        comment: `/requests/${request.id}/comments/${comment.id}/attachments/${commentAttachment}`,
      };

      for (const [base, pages] of [
        [bases.attachment, '3'],
        [bases.file, '1'],
        [bases.comment, '2'],
      ] as const) {
        const head = await get(`${base}/preview`, hr, 'HEAD');
        assert.equal(head.status, 204, base);
        assert.equal(head.headers.get('page-count'), pages, base);
      }

      const page2 = await decode(await get(`${bases.attachment}/preview/2`));
      assert.ok(dark(page2.pixel(90, 90)));
      const top = await decode(await get(`${bases.attachment}/preview/2?crop_rate=0.25&size=small`));
      assert.deepEqual([top.width, top.height], [300, Math.round(((792 * 300) / 612) * 0.25)], 'the top quarter');
      assert.ok(dark(top.pixel(34, 34)));
      const proofPng = await decode(await get(`${bases.file}/preview/1?size=small`));
      assert.deepEqual([proofPng.width, proofPng.height], [300, 225]);
      const reply = await decode(await get(`${bases.comment}/preview/1`));
      assert.ok(dark(reply.pixel(90, 90)));

      assert.equal((await error(await get(`${bases.attachment}/preview/4`), 404)).code, 'not_found');
      assert.equal((await error(await get(`${bases.file}/preview/2`), 404)).code, 'not_found');
      assert.equal((await error(await get(`${bases.attachment}/preview/0`), 404)).code, 'not_found');
      assert.equal((await error(await get(`${bases.attachment}/preview/x`), 404)).code, 'not_found');
      for (const query of ['crop_rate=0', 'crop_rate=1.5', 'crop_rate=x', 'size=tiny']) {
        const body = await error(await get(`${bases.attachment}/preview/1?${query}`), 422);
        assert.equal(body.code, 'validation_error', query);
      }

      // Another tenant: none of it exists.
      for (const base of Object.values(bases)) {
        assert.equal((await get(`${base}/preview`, other, 'HEAD')).status, 404);
        assert.equal((await error(await get(`${base}/preview/1`, other), 404)).code, 'not_found');
      }
    });

    it('previews a signature process’s current PDF by page; another tenant’s is 404', async () => {
      const uploadId = await upload(server, hr, await markedPdf(2, 2), 'offer.pdf');
      const made = await json<{ id: string }>(
        await hr.call('POST', '/signature_processes', {
          signature_type_id: 'docusign',
          title: 'Offer',
          reason: 'Offer letter',
          upload_id: uploadId,
        }),
        201,
      );
      const png = await decode(await get(`/signature_processes/${made.id}/preview?page=2&size=small`));
      assert.equal(png.width, 300);
      assert.ok(dark(png.pixel(34, 34)));
      const missing = await error(await get(`/signature_processes/${made.id}/preview`), 422);
      assert.equal(missing.errors?.[0]?.field, 'page', 'page is required');
      assert.equal(
        (await error(await get(`/signature_processes/${made.id}/preview?page=3`), 422)).code,
        'validation_error',
      );
      assert.equal(
        (await error(await get(`/signature_processes/${made.id}/preview?page=1`, other), 404)).code,
        'not_found',
      );
    });

    it('POST /uploads/{id}/text_occurrences finds a keyword in a PDF upload, page by page, in PDF points', async () => {
      // markedPdf draws "Page n" at x 300, y 700 in the PDF library's default 24 pt Helvetica.
      const id = await upload(server, hr, await markedPdf(3, 1), 'words.pdf');
      const found = await json<
        { keyword: string; page_number: number; left: number; top: number; width: number; height: number }[]
      >(await hr.call('POST', `/uploads/${id}/text_occurrences`, { keyword: 'PAGE' }), 200);
      assert.deepEqual(
        found.map((f) => [f.keyword, f.page_number]),
        [
          ['PAGE', 1],
          ['PAGE', 2],
          ['PAGE', 3],
        ],
      );
      for (const f of found) {
        assert.equal(f.left, 300);
        assert.ok(f.top > 700 && f.top <= 730, `above the baseline: ${f.top}`);
        assert.ok(f.width > 30 && f.width < 80, `four letters wide: ${f.width}`);
        assert.ok(f.height > 0);
      }
      const three = await json<{ page_number: number; left: number }[]>(
        await hr.call('POST', `/uploads/${id}/text_occurrences`, { keyword: '3' }),
        200,
      );
      assert.deepEqual(
        three.map((f) => f.page_number),
        [3],
      );
      assert.ok((three[0]?.left ?? 0) > 330, 'after "Page "');
      assert.deepEqual(
        await json(await hr.call('POST', `/uploads/${id}/text_occurrences`, { keyword: 'absent' }), 200),
        [],
      );

      for (const keyword of ['', '   ']) {
        const res = await hr.call('POST', `/uploads/${id}/text_occurrences`, { keyword });
        assert.equal((await error(res, 422)).errors?.[0]?.field, 'keyword');
      }
      assert.equal(
        (await error(await hr.call('POST', `/uploads/${id}/text_occurrences`, {}), 422)).code,
        'validation_error',
      );
      const text = await upload(server, hr, Buffer.from('Page one'), 'page.txt');
      assert.equal(
        (await error(await hr.call('POST', `/uploads/${text}/text_occurrences`, { keyword: 'Page' }), 422)).code,
        'unsupported_file_type',
      );
      const nope = '6c1f1f3e-2b7a-4d0e-9a51-0f0d7f6b9c11';
      assert.equal(
        (await error(await hr.call('POST', `/uploads/${nope}/text_occurrences`, { keyword: 'x' }), 404)).code,
        'not_found',
      );
      assert.equal(
        (await error(await other.call('POST', `/uploads/${id}/text_occurrences`, { keyword: 'Page' }), 404)).code,
        'not_found',
        'another tenant’s upload',
      );
    });

    /** The places a word appears in a PDF, read back through the API (upload, then text_occurrences). */
    const wordsOf = async (pdf: Buffer, keyword: string) => {
      const id = await upload(server, hr, pdf, 'read-back.pdf');
      return json<{ page_number: number }[]>(
        await hr.call('POST', `/uploads/${id}/text_occurrences`, { keyword }),
        200,
      );
    };

    it('a duplicate: the PDF with DUPLICATE across each page and a dated footer; PDF sources only', async () => {
      const res = await get(`/employee_documents/${pdfDoc}/duplicate`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/pdf');
      assert.equal(res.headers.get('content-disposition'), 'attachment; filename="contract-duplicate.pdf"');
      assert.equal(res.headers.get('cache-control'), 'no-store');
      const copy = Buffer.from(await res.arrayBuffer());
      const doc = await PDFDocument.load(copy);
      assert.equal(doc.getPageCount(), 3);
      assert.deepEqual(
        (await wordsOf(copy, 'DUPLICATE')).map((f) => f.page_number).filter((n, i, all) => all.indexOf(n) === i),
        [1, 2, 3],
        'the word across every page (and in its footer)',
      );
      const footer = await wordsOf(copy, `Duplicate of contract.pdf (document ${pdfDoc}), made 20`);
      assert.equal(footer.length, 3, 'the footer on every page');
      const day = new Date().toISOString().slice(0, 10);
      assert.equal((await wordsOf(copy, `, made ${day} `)).length, 3, 'made <date> <time> UTC');
      assert.deepEqual(await wordsOf(copy, '+00:00'), [], 'a time for people, not an API timestamp');
      // The original is untouched.
      const original = Buffer.from(await (await get(`/employee_documents/${pdfDoc}/file`)).arrayBuffer());
      assert.deepEqual(await wordsOf(original, 'DUPLICATE'), []);

      assert.equal(
        (await error(await get(`/company_documents/${jpegDoc}/duplicate`), 422)).code,
        'unsupported_file_type',
      );
      assert.equal((await error(await get(`/employee_documents/${pdfDoc}/duplicate`, other), 404)).code, 'not_found');
    });

    it('a receipt: XML naming the document, its checksum, owner and organizations, escaped', async () => {
      const fileId = await upload(server, hr, await markedPdf(1, 1), 'a&b.pdf');
      const doc = await json<{ id: string }>(
        await hr.call('POST', '/employee_documents', {
          employee_id: employeeId,
          document_type_id: 'contract',
          title: 'Terms & <conditions>',
          uploaded_file: { filename: 'a&b.pdf', file_id: fileId },
        }),
        201,
      );
      const res = await get(`/employee_documents/${doc.id}/receipt`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/xml; charset=utf-8');
      assert.equal(res.headers.get('content-disposition'), `attachment; filename="receipt-${doc.id}.xml"`);
      const xml = await res.text();
      const { sha256, size } = await server.app.database.db
        .selectFrom('hr_documents')
        .select(['sha256', 'size'])
        .where('id', '=', doc.id)
        .executeTakeFirstOrThrow();
      assert.match(
        xml,
        /^<\?xml version="1.0" encoding="UTF-8"\?>\n<receipt xmlns="urn:atrium:document-receipt:1" issued_at="\d{4}-\d\d-\d\dT[^"]+Z" issuer="Atrium [^"]+">/,
      );
      assert.ok(xml.includes(`<document id="${doc.id}" kind="employee">`));
      assert.ok(xml.includes('<title>Terms &amp; &lt;conditions&gt;</title>'), xml);
      assert.ok(xml.includes('<name>a&amp;b.pdf</name>'));
      assert.ok(xml.includes(`<sha256>${sha256}</sha256>`));
      assert.ok(xml.includes(`<size>${size}</size>`));
      assert.ok(xml.includes('<page_count>1</page_count>'));
      assert.ok(xml.includes(`<employee_id>${employeeId}</employee_id>`));
      assert.ok(xml.includes('<organization_ids>'));
      const company = await (await get(`/company_documents/${jpegDoc}/receipt`)).text();
      assert.ok(company.includes('<organization_id>hq</organization_id>'));
      assert.ok(company.includes('<page_count/>'), 'a JPEG has no page count');
      assert.ok(!company.includes('<employee_id>'));
      assert.equal((await error(await get(`/employee_documents/${doc.id}/receipt`, other), 404)).code, 'not_found');
    });

    it('GET /requests/{id}/pdf: the request, its answers and its comments as a PDF; another tenant’s is 404', async () => {
      const categoryId = await category(hr, 'Benefits');
      await simpleForm(hr, 'pdf-form', categoryId);
      const made = await json<{ id: string; request_number: string }>(
        await hr.call('POST', '/requests', {
          form_id: 'pdf-form',
          employee_id: employeeId,
          form_data: [{ field_id: 'subject', values: ['Where is my gym membership?'] }],
        }),
        201,
      );
      await json(
        await hr.call('POST', `/requests/${made.id}/comments`, { content: 'Looking into it now.', creator_id: agent }),
        200,
      );
      const res = await get(`/requests/${made.id}/pdf`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/pdf');
      assert.equal(res.headers.get('content-disposition'), `attachment; filename="request-${made.request_number}.pdf"`);
      const pdf = Buffer.from(await res.arrayBuffer());
      assert.ok((await PDFDocument.load(pdf)).getPageCount() >= 1);
      for (const words of [
        'Where is my gym membership?',
        'Looking into it now.',
        'Hedy Lamarr',
        'Ada Lovelace',
        'Comments (1)',
      ]) {
        assert.ok((await wordsOf(pdf, words)).length >= 1, `the PDF shows "${words}"`);
      }
      assert.equal((await error(await get(`/requests/${made.id}/pdf`, other), 404)).code, 'not_found');
      assert.equal(
        (await error(await get('/requests/6c1f1f3e-2b7a-4d0e-9a51-0f0d7f6b9c11/pdf'), 404)).code,
        'not_found',
      );
    });

    it('another tenant’s documents have no preview (404)', async () => {
      assert.equal((await error(await get(`/employee_documents/${pdfDoc}/preview`, other), 404)).code, 'not_found');
      assert.equal((await error(await get(`/company_documents/${jpegDoc}/preview`, other), 404)).code, 'not_found');
    });

    it('the sweep forgets the renditions of a deleted file, and their PNGs', async () => {
      // Bytes of its own (a comment after the end): no other document holds them.
      const bytes = Buffer.concat([await markedPdf(1, 1), Buffer.from(`%${randomUUID()}\n`)]);
      const doc = await document('employee', bytes, 'gone.pdf');
      await decode(await get(`/employee_documents/${doc}/preview?size=small`));
      const { sha256 } = await server.app.database.db
        .selectFrom('hr_documents')
        .select('sha256')
        .where('id', '=', doc)
        .executeTakeFirstOrThrow();
      const mine = async () => (await renditionRows()).filter((r) => r.source_sha256 === sha256);
      const [rendition] = await mine();
      assert.ok(rendition);
      assert.equal(await server.app.services.renditions.sweep(), 0, 'kept while the file is stored');
      assert.equal((await hr.call('DELETE', `/employee_documents/${doc}`)).status, 204);
      assert.ok((await server.app.services.renditions.sweep()) >= 1);
      assert.deepEqual(await mine(), []);
      const png = await server.app.database.db
        .selectFrom('blobs')
        .select('sha256')
        .where('sha256', '=', rendition.sha256)
        .executeTakeFirst();
      assert.equal(png, undefined, 'the PNG is deleted');
    });
  });
}
