/**
 * The document generation pass of `npm run bench` (issue 47): on one server process, the sample one-page
 * certificate (src/hr/document-generation/samples.ts) generated one document after another, in DOCX and in PDF
 * (`POST /document_generations`), measured by the server's CPU per document and documents a second; then a campaign
 * of the same template in PDF (`output_action: pdf`), by documents a second from its creation to `completed`.
 */
import { type ServerProcess, settled, treeCpuSeconds } from './lib.js';

/** Documents generated per format, and the campaign's rows. */
export const DOCGEN_PLAN = {
  full: { documents: 200, campaignRows: 500 },
  quick: { documents: 40, campaignRows: 100 },
  smoke: { documents: 5, campaignRows: 10 },
};

export interface DocgenPassResult {
  documents: number;
  /** Per format: server CPU per document (µs), mean latency (ms), documents a second (one at a time). */
  formats: { format: 'DOCX' | 'PDF'; cpuUsPerDocument: number; meanMs: number; documentsPerSecond: number }[];
  campaign: { rows: number; seconds: number; documentsPerSecond: number; status: string };
}

/** What the pass needs of the bench's harness (bench/run.ts). */
export interface DocgenPassDeps {
  server: ServerProcess;
  bearer: string;
  employeeId: string;
  call(method: string, path: string, body?: unknown): Promise<unknown>;
  say(line: string): void;
  plan: { documents: number; campaignRows: number };
}

/** The certificate's dataset for row `n` (each row its own values). */
export function certificateFields(n: number) {
  return [
    { slug: 'firstname', value: 'Ada' },
    { slug: 'lastname', value: `Lovelace ${n}` },
    { slug: 'company', value: 'Acme' },
    { slug: 'hire_date', value: '2024-03-01', type: 'date' },
    { slug: 'position', value: 'Engineer' },
    { slug: 'remote', value: n % 2 === 0 },
    { slug: 'city', value: 'Paris' },
    {
      slug: 'salaries',
      value: [
        [
          { slug: 'year', value: 2024 },
          { slug: 'amount', value: `${50 + (n % 10)},000` },
        ],
        [
          { slug: 'year', value: 2025 },
          { slug: 'amount', value: `${52 + (n % 10)},000` },
        ],
      ],
    },
  ];
}

export async function runDocgenPass(deps: DocgenPassDeps): Promise<DocgenPassResult> {
  const { server, bearer, call, say, plan } = deps;
  const template = (await call('POST', '/document_generation_templates', {
    title: 'Bench certificate',
    description: '',
    locale: 'en-us',
    enabled: true,
  })) as { id: string };
  const { certificateTemplate } = await import('../src/hr/document-generation/samples.js');
  const form = new FormData();
  form.append('template', new Blob([Buffer.from(certificateTemplate('V2'))]), 'certificate.docx');
  const uploaded = await fetch(`${server.url}/api/v2/client/document_generation_templates/${template.id}/file`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}` },
    body: form,
  });
  if (uploaded.status !== 201) throw new Error(`template upload: ${uploaded.status} ${await uploaded.text()}`);
  const generate = (format: 'DOCX' | 'PDF', n: number) =>
    call('POST', '/document_generations', {
      document_generation_template_id: template.id,
      output_format: format,
      fields: certificateFields(n),
    });
  // The first documents start the worker and load the engine: not counted.
  for (const format of ['DOCX', 'PDF'] as const) for (let n = 0; n < 3; n++) await generate(format, -n);
  const formats: DocgenPassResult['formats'] = [];
  for (const format of ['DOCX', 'PDF'] as const) {
    say(`[docgen] ${plan.documents} ${format} documents, one at a time`);
    await settled(server.pid);
    const cpu = treeCpuSeconds(server.pid);
    const started = performance.now();
    for (let n = 0; n < plan.documents; n++) await generate(format, n);
    const ms = performance.now() - started;
    formats.push({
      format,
      cpuUsPerDocument: ((treeCpuSeconds(server.pid) - cpu) * 1e6) / plan.documents,
      meanMs: ms / plan.documents,
      documentsPerSecond: (plan.documents * 1000) / ms,
    });
  }
  say(`[docgen] a campaign of ${plan.campaignRows} rows, output_action pdf`);
  await settled(server.pid);
  const started = performance.now();
  const campaign = (await call('POST', '/document_generation_campaigns', {
    title: 'Bench campaign',
    document_generation_template_id: template.id,
    output_action: 'pdf',
    data: Array.from({ length: plan.campaignRows }, (_, n) => ({
      employee_id: deps.employeeId,
      ref: `row-${n}`,
      fields: certificateFields(n),
    })),
  })) as { id: string };
  let status = 'created';
  while (status === 'created' || status === 'in_progress') {
    await new Promise((resolve) => setTimeout(resolve, 50));
    status = ((await call('GET', `/document_generation_campaigns/${campaign.id}`)) as { status: string }).status;
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    documents: plan.documents,
    formats,
    campaign: { rows: plan.campaignRows, seconds, documentsPerSecond: plan.campaignRows / seconds, status },
  };
}
