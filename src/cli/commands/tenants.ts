/** `atrium tenants list`: every tenant of both APIs, without secrets. */
import type { Command } from 'commander';
import { command, examples, output, withServices } from './shared.js';

export function addTenantsCommands(program: Command): void {
  const tenants = command(program, 'tenants', '<command> [options]', 'every tenant of both APIs')
    .helpCommand(false)
    .addHelpText('after', examples('atrium tenants list', 'atrium tenants list --json'));

  command(tenants, 'list', '[--json]', 'HR clients with their applications, academies with their key ids; no secrets')
    .option('--json', 'print {"hr": [{client_id, name, created_at, applications}], "academy": [{acadId, name, …}]}')
    .addHelpText('after', examples('atrium tenants list', 'atrium tenants list --json | jq ".hr[].client_id"'))
    .action(async (options: { json?: boolean }) => {
      const json = options.json === true;
      const listed = await withServices(json, async (services) => ({
        hr: await services.tenants.list(),
        academy: await services.academies.list(),
      }));
      const lines = [`HR clients: ${listed.hr.length}`];
      for (const c of listed.hr) {
        lines.push(`  ${c.client_id}  ${c.name}  (created ${c.created_at})`);
        for (const a of c.applications) {
          const flags = [a.read_only ? 'read-only' : '', a.revoked_at ? `revoked ${a.revoked_at}` : '']
            .filter(Boolean)
            .join(', ');
          lines.push(
            `    application ${a.application_id}  ${a.name}  (created ${a.created_at}${flags ? `; ${flags}` : ''})`,
          );
        }
      }
      lines.push(`Academies: ${listed.academy.length}`);
      for (const a of listed.academy) {
        lines.push(`  acadId ${a.acadId}  ${a.name}  (created ${a.created_at})`);
        for (const k of a.keys) {
          const until = k.expires_at ? `, until ${k.expires_at}` : '';
          lines.push(`    key ${k.key_id}  ${k.state}  (created ${k.created_at}${until})`);
        }
      }
      output(json, listed, lines.join('\n'));
    });
}
