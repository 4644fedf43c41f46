/** `atrium hr …`: HR API tenants: clients, applications, their mails, signing keys, CSV imports. */
import { type Command, InvalidArgumentError } from 'commander';
import { hrTenantId } from '../../platform/db/tenant.js';
import { io } from '../io.js';
import { command, examples, integerIn, nonEmpty, output, textUpTo, withServices } from './shared.js';

const IMPORT_KINDS = ['employee', 'manager', 'organization'] as const;
type ImportKind = (typeof IMPORT_KINDS)[number];

function importType(value: string): ImportKind {
  if (!(IMPORT_KINDS as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`must be one of ${IMPORT_KINDS.join(', ')}`);
  }
  return value as ImportKind;
}

export function addHrCommands(program: Command): void {
  const hr = command(
    program,
    'hr',
    '<command> [options]',
    'HR API tenants: clients, applications, signing keys, imports',
  )
    .helpCommand(false)
    .addHelpText('after', examples('atrium hr create-client --name Acme', 'atrium hr create-application --help'));

  addHrApplicationCommands(hr);
  addHrOutboxCommand(hr);
  addHrSigningKeyCommand(hr);
  addHrImportCommand(hr);
  addHrSampleTemplateCommand(hr);
  addHrPdfTextCommand(hr);
}

/** `pdf-text`: a PDF's text, page by page, read as previews read it (to check a generated document). */
function addHrPdfTextCommand(hr: Command): void {
  command(hr, 'pdf-text', 'FILE [--json]', "print the text of each page of a PDF (a generated document's, say)")
    .argument('<FILE>', 'the PDF')
    .option('--json', 'print {"file", "pages": [text, …]}')
    .addHelpText('after', examples('atrium hr pdf-text certificate.pdf'))
    .action(async (file: string, options: { json?: boolean }) => {
      const { readFile } = await import('node:fs/promises');
      const { PdfWorker } = await import('../../platform/pdf/runner.js');
      const { CliError } = await import('../failure.js');
      let bytes: Buffer;
      try {
        bytes = await readFile(file);
      } catch (err) {
        throw new CliError(`cannot read ${file}: ${(err as Error).message}`);
      }
      const worker = new PdfWorker();
      const texts = await worker.texts(bytes).finally(() => worker.stop());
      if (!Array.isArray(texts)) throw new CliError(`${file} is not a PDF that can be read`);
      output(
        options.json === true,
        { file, pages: texts },
        texts.map((text, i) => `--- page ${i + 1}\n${text}`).join('\n'),
      );
    });
}

/** `sample-template`: the sample document generation template (docs/hr-api.md, "Document generation"). */
function addHrSampleTemplateCommand(hr: Command): void {
  command(hr, 'sample-template', '--out FILE [--syntax V1|V2] [--json]', 'write a sample DOCX template to upload')
    .requiredOption('--out <FILE>', 'where to write the DOCX', nonEmpty)
    .option('--syntax <V1|V2>', 'its placeholders’ syntax (default V2)', (value: string) => {
      if (value !== 'V1' && value !== 'V2') throw new InvalidArgumentError('must be V1 or V2');
      return value;
    })
    .option('--json', 'print {"file", "bytes", "syntax"}')
    .addHelpText('after', examples('atrium hr sample-template --out certificate.docx'))
    .action(async (options: { out: string; syntax?: 'V1' | 'V2'; json?: boolean }) => {
      const { certificateTemplate } = await import('../../hr/document-generation/samples.js');
      const { writeFile } = await import('node:fs/promises');
      const syntax = options.syntax ?? 'V2';
      const bytes = certificateTemplate(syntax);
      await writeFile(options.out, bytes);
      output(
        options.json === true,
        { file: options.out, bytes: bytes.length, syntax },
        `wrote ${options.out} (${syntax} placeholders)`,
      );
    });
}

/** `create-client`, `create-application`, `revoke-application`. */
function addHrApplicationCommands(hr: Command): void {
  command(hr, 'create-client', '--name NAME [--json]', 'create an HR client (tenant) and print its id')
    .requiredOption('--name <NAME>', "the client's name", nonEmpty)
    .option('--json', 'print {"client_id"}')
    .addHelpText(
      'after',
      examples('atrium hr create-client --name "Acme"', 'atrium hr create-client --name "Acme" --json'),
    )
    .action(async (options: { name: string; json?: boolean }) => {
      const json = options.json === true;
      const result = await withServices(json, (services) => services.tenants.createClient(options.name));
      output(json, result, `client_id: ${result.client_id}`);
    });

  command(
    hr,
    'create-application',
    '--client-id ID --name NAME [--read-only] [--json]',
    'create an application of a client; its secret is shown only now',
  )
    .requiredOption('--client-id <ID>', 'the client (from create-client)', nonEmpty)
    .requiredOption('--name <NAME>', "the application's name", nonEmpty)
    .option('--read-only', 'may call GET, HEAD and the POST searches only (anything else: 403 insufficient_scope)')
    .option('--json', 'print {"client_id", "application_id", "application_secret"}')
    .addHelpText(
      'after',
      examples(
        'atrium hr create-application --client-id "$CLIENT_ID" --name "HRIS sync" --json',
        'atrium hr create-application --client-id "$CLIENT_ID" --name "BI" --read-only',
      ),
    )
    .action(async (options: { clientId: string; name: string; readOnly?: boolean; json?: boolean }) => {
      const json = options.json === true;
      const result = await withServices(json, (services) =>
        services.tenants.createApplication(hrTenantId(options.clientId), options.name, options.readOnly === true),
      );
      output(
        json,
        result,
        `client_id: ${result.client_id}\napplication_id: ${result.application_id}\napplication_secret: ${result.application_secret}\n(the secret is shown only now)`,
      );
    });

  command(
    hr,
    'revoke-application',
    '--application-id ID [--json]',
    'revoke an application and its tokens (every server process within a second)',
  )
    .requiredOption('--application-id <ID>', 'the application to revoke', nonEmpty)
    .option('--json', 'print {"application_id", "revoked": true}')
    .addHelpText('after', examples('atrium hr revoke-application --application-id "$APP_ID"'))
    .action(async (options: { applicationId: string; json?: boolean }) => {
      const json = options.json === true;
      const id = options.applicationId;
      await withServices(json, (services) => services.tenants.revokeApplication(id));
      output(json, { application_id: id, revoked: true }, `revoked application ${id}`);
    });
}

function addHrOutboxCommand(hr: Command): void {
  command(
    hr,
    'outbox',
    '--client-id ID [--kind K] [--related-id ID] [--limit N] [--json]',
    'the mails Atrium would have sent for a client (it sends none), newest first',
  )
    .requiredOption('--client-id <ID>', 'the client', nonEmpty)
    .option(
      '--kind <KIND>',
      'only mails of this kind (signature.invitation, inbox.notification, user.invitation, …)',
      textUpTo(60),
    )
    .option(
      '--related-id <ID>',
      'only mails about this object (a signature process, an inbox item, a user)',
      textUpTo(64),
    )
    .option('--limit <N>', 'at most N mails (default 20, at most 1000)', integerIn(1, 1000, 'from 1 to 1000'))
    .option('--json', 'print {"mails": [{id, kind, to_address, to_name, subject, body, related_id, created_at}]}')
    .addHelpText(
      'after',
      examples(
        'atrium hr outbox --client-id "$CLIENT_ID"',
        'atrium hr outbox --client-id "$CLIENT_ID" --kind user.invitation --json',
      ),
    )
    .action(
      async (options: { clientId: string; kind?: string; relatedId?: string; limit?: number; json?: boolean }) => {
        const json = options.json === true;
        const page = await withServices(json, async (services) => {
          await services.tenants.requireClient(hrTenantId(options.clientId));
          return services.outbox.list(
            hrTenantId(options.clientId),
            { kind: options.kind, relatedId: options.relatedId },
            { limit: options.limit ?? 20, sort: [], at: {} },
          );
        });
        const mails = page.items.map((m) => ({
          id: m.id,
          kind: m.kind,
          to_address: m.toAddress,
          to_name: m.toName,
          subject: m.subject,
          body: m.body,
          related_id: m.relatedId,
          created_at: new Date(m.createdAt).toISOString(),
        }));
        const text =
          mails.length === 0
            ? 'no mail'
            : mails
                .map(
                  (m) =>
                    `${m.created_at}  ${m.kind}  to ${m.to_name} <${m.to_address ?? 'no address'}>\n  ${m.subject}`,
                )
                .join('\n');
        output(json, { mails }, text);
      },
    );
}

function addHrSigningKeyCommand(hr: Command): void {
  command(
    hr,
    'rotate-signing-key',
    '[--revoke-previous] [--json]',
    'sign new tokens with a new key; the previous key verifies its tokens until they expire',
  )
    .option('--revoke-previous', 'refuse tokens of the older keys at once (a leaked key)')
    .option('--json', 'print {"kid", "previousKeysRevoked"}')
    .addHelpText(
      'after',
      examples('atrium hr rotate-signing-key', 'atrium hr rotate-signing-key --revoke-previous --json'),
    )
    .action(async (options: { revokePrevious?: boolean; json?: boolean }) => {
      const json = options.json === true;
      const revokePrevious = options.revokePrevious === true;
      const kid = await withServices(json, (services) => services.auth.rotateSigningKey({ revokePrevious }));
      output(
        json,
        { kid, previousKeysRevoked: revokePrevious },
        revokePrevious
          ? `now signing with key ${kid}; tokens signed with the previous keys are refused from now on`
          : `now signing with key ${kid}; the previous key verifies its tokens until they expire`,
      );
    });
}

function addHrImportCommand(hr: Command): void {
  command(
    hr,
    'import',
    '--client-id ID --type employee|manager|organization FILE [--json]',
    'import a CSV file into a client, as POST /imports does, and wait for its end',
  )
    .argument('<FILE>', 'the CSV file (layout: docs/hr-api.md, "Imports")')
    .requiredOption('--client-id <ID>', 'the HR client to import into', nonEmpty)
    .requiredOption('--type <TYPE>', 'employee, manager or organization', importType)
    .option('--json', 'print the import as GET /imports/{id} shows it')
    .addHelpText(
      'after',
      `${examples('atrium hr import --client-id 0b6e… --type employee employees.csv', 'atrium hr import --client-id 0b6e… --type organization orgs.csv --json')}
Draws a progress bar on a terminal (never with --json). Exits 1 unless every row was applied (partial_success,
failed); the failed rows are in the import's errors_report. Runs background jobs while it waits (a running server
may run the import instead: either way, once).
`,
    )
    .action(async (file: string, options: { clientId: string; type: ImportKind; json?: boolean }) => {
      const json = options.json === true;
      const [{ hrImport, formatHrImport }, { progressBar }] = await Promise.all([
        import('../hr-import.js'),
        import('../progress.js'),
      ]);
      const progress = progressBar(json);
      const result = await withServices(json, (services) =>
        hrImport(services, { clientId: hrTenantId(options.clientId), type: options.type, file, progress }),
      );
      output(json, result, formatHrImport(result));
      if (result.status !== 'success') io().exitCode = 1;
    });
}
