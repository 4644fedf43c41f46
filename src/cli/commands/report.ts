/** `atrium report`: a tenant's integration report (admin/report/). */
import { type Command, InvalidArgumentError } from 'commander';
import { io } from '../io.js';
import { command, examples, nonEmpty, withServices } from './shared.js';

/** `hr:<client_id>` or `academy:<acadId>`: the kind and the id, as the admin API's paths take them. */
function tenantAddress(value: string): [string, string] {
  const match = /^(hr|academy):(.+)$/.exec(value);
  if (!match) throw new InvalidArgumentError('must be hr:<client_id> or academy:<acadId>');
  return [match[1] as string, match[2] as string];
}

export function addReportCommand(program: Command): void {
  command(
    program,
    'report',
    '--tenant hr:ID|academy:ID [--since D] [--until D] [--json]',
    "a tenant's integration report",
  )
    .requiredOption('--tenant <TENANT>', 'hr:<client_id> or academy:<acadId>', tenantAddress)
    .option('--since <DATETIME>', 'from this instant (default: 24 hours before --until)', nonEmpty)
    .option('--until <DATETIME>', 'up to this instant (default: now)', nonEmpty)
    .option('--json', 'print the report as GET /admin/v1/tenants/{kind}/{id}/report answers it')
    .addHelpText(
      'after',
      `${examples('atrium report --tenant hr:0b6e…', 'atrium report --tenant academy:12 --since 2026-11-01T00:00:00Z > report.md')}
From the tenant's request log (docs/admin.md, "Report"): each operation called, with counts, error rate and
latency, then what would not work on the real service (Atrium extensions, deprecated operations, parameters the
real API does not take). Markdown, unless --json.
`,
    )
    .action(async (options: { tenant: [string, string]; since?: string; until?: string; json?: boolean }) => {
      const json = options.json === true;
      const [{ presentReport, reportMarkdown }, { reportRange }] = await Promise.all([
        import('../../admin/report/presenter.js'),
        import('../../admin/report/service.js'),
      ]);
      const report = await withServices(json, async (services) => {
        const tenant = await services.adminTenants.resolve(...options.tenant);
        const range = reportRange({ since: options.since, until: options.until }, services.clock.wall());
        return presentReport(await services.reports.report(tenant, range.since, range.until));
      });
      io().stdout.write(json ? `${JSON.stringify(report)}\n` : reportMarkdown(report));
    });
}
