/** `atrium proxy` and `atrium proxy report`: the validation proxy (admin/proxy/, docs/proxy.md). */
import path from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { io } from '../io.js';
import { command, examples, integerIn, nonEmpty, settings } from './shared.js';

const portNumber = integerIn(0, 65535, 'a port number (0 to 65535)');

/** `--target`: an http or https URL without query or fragment (start.ts checks it again for other callers). */
function targetOption(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('must be a URL: https://<the real service>');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InvalidArgumentError('must be an http or https URL');
  if (url.search || url.hash) throw new InvalidArgumentError('must have no query or fragment');
  return value;
}

interface ProxyOptions {
  target: string;
  port?: number;
  host?: string;
  journal?: string;
  record?: string;
  openapi?: string;
}

/** The journal: --journal, else `ATRIUM_PROXY_JOURNAL`, else proxy.sqlite in the data directory. */
async function journalFile(given: string | undefined): Promise<string> {
  return given ? path.resolve(given) : settings().proxyJournal;
}

async function runProxy(options: ProxyOptions): Promise<void> {
  const { startProxy } = await import('../../admin/proxy/start.js');
  const run = io();
  const journal = await journalFile(options.journal);
  const proxy = await startProxy({
    target: options.target,
    port: options.port ?? 8090,
    host: options.host ?? '127.0.0.1',
    journal,
    ...(options.record ? { record: path.resolve(options.record) } : {}),
    ...(options.openapi ? { document: path.resolve(options.openapi) } : {}),
    onNewDeparture: (operation, d) =>
      run.stderr.write(
        `departure: ${operation} ${d.direction} ${d.kind}${d.field ? ` ${d.field}` : ''}: expected ${d.expected}, got ${d.actual}\n`,
      ),
  });
  run.stderr.write(
    `proxy on ${proxy.url} → ${options.target} (${proxy.operations} operations checked; journal ${journal}${options.record ? `; recording to ${options.record}` : ''})\nreport: ${proxy.url}/__atrium/proxy\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await proxy.close();
}

export function addProxyCommands(program: Command): void {
  const proxy = command(
    program,
    'proxy',
    '--target URL [--port N] [--host H] [--journal FILE] [--record DIR] [--openapi FILE]',
    "forward calls to the real service and report where its answers depart from Atrium's schemas",
  )
    .option('--target <URL>', 'the real service (https://<tenant host>); required to run the proxy', targetOption)
    .option('--port <N>', 'TCP port of the proxy (default 8090; 0: any free port)', portNumber)
    .option('--host <H>', 'interface to bind (default 127.0.0.1)', nonEmpty)
    .option('--journal <FILE>', 'where departures are kept (default: proxy.sqlite in the data directory)', nonEmpty)
    .option('--record <DIR>', 'also save each exchange, redacted, in DIR (for atrium replay)', nonEmpty)
    .option('--openapi <FILE>', "the OpenAPI document to check against (default: Atrium's own)", nonEmpty)
    .addHelpText(
      'after',
      `${examples(
        'atrium proxy --target https://tenant.example.com',
        'atrium proxy --target https://tenant.example.com --port 9000 --record ./recording',
        'atrium proxy report --json',
      )}
Every call is forwarded unchanged; each request and answer is checked against Atrium's schemas of its operation,
and every departure (a field missing or extra, a wrong type or value, an undeclared status, a header, a call
Atrium does not serve) is kept in the journal, without bodies. The report: atrium proxy report, or the proxy's
page /__atrium/proxy. Stop with Ctrl-C (docs/proxy.md).
`,
    )
    .action(async (options: ProxyOptions) => {
      if (!options.target) {
        proxy.error("error: required option '--target <URL>' not specified", { exitCode: 2 });
      }
      await runProxy(options);
    });

  command(proxy, 'report', '[--json] [--journal FILE]', 'print the departures the proxy found, per operation')
    .option('--json', 'print the report as JSON (as /__atrium/proxy.json answers it)')
    .option('--journal <FILE>', 'the journal to read (default: proxy.sqlite in the data directory)', nonEmpty)
    .addHelpText('after', examples('atrium proxy report', 'atrium proxy report --json --journal ./proxy.sqlite'))
    // `proxy` has its own --journal, which commander gives the parent wherever it is written.
    .action(async (options: { json?: boolean; journal?: string }, cmd: Command) => {
      const journal = options.journal ?? (cmd.parent?.opts() as { journal?: string } | undefined)?.journal;
      const [{ reportOf }, { reportText }] = await Promise.all([
        import('../../admin/proxy/store.js'),
        import('../../admin/proxy/report.js'),
      ]);
      const file = await journalFile(journal);
      const report = reportOf(file) ?? { operations: [], departures: 0, calls: 0 };
      io().stdout.write(options.json ? `${JSON.stringify(report)}\n` : reportText(report));
    });
}
