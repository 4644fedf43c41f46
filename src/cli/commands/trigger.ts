/** `atrium trigger`: an operator's audit event on an HR client (admin/events/). */
import { type Command, InvalidArgumentError } from 'commander';
import { count } from '../plural.js';
import { command, examples, nonEmpty, output, withServices } from './shared.js';

/** `hr/<client_id>` (or `hr:<client_id>`): event triggers are for HR clients only. */
function hrTenant(value: string): string {
  const match = /^(hr|academy)[/:](.+)$/.exec(value);
  if (!match) throw new InvalidArgumentError('must be hr/<client_id>');
  if (match[1] === 'academy') throw new InvalidArgumentError('an academy has no audit events: hr/<client_id> only');
  return match[2] as string;
}

export function addTriggerCommand(program: Command): void {
  command(program, 'trigger', '--tenant hr/ID TYPE [--resource-id ID] [--json]', 'fire an audit event of an HR client')
    .argument('<TYPE>', 'an event type, {resource_type}.{action} (employee.updated)')
    .requiredOption('--tenant <TENANT>', 'hr/<client_id>', hrTenant)
    .option('--resource-id <ID>', 'the resource it is about (default: the one of that type written last)', nonEmpty)
    .option('--json', 'print {event, webhooks} as POST /admin/v1/tenants/hr/{id}/events/trigger answers it')
    .addHelpText(
      'after',
      `${examples('atrium trigger --tenant hr/0b6e… employee.updated', 'atrium trigger --tenant hr/0b6e… custom_status.created --resource-id 12 --json')}
The event carries the resource's present state and goes through the outbox to every matching webhook, as a real
one; the audit trail marks it triggered (docs/admin.md, "Event triggers"). A running server delivers it.
`,
    )
    .action(async (type: string, options: { tenant: string; resourceId?: string; json?: boolean }) => {
      const json = options.json === true;
      const fired = await withServices(json, async (services) => {
        const tenant = await services.adminTenants.resolve('hr', options.tenant);
        return services.adminEvents.trigger(tenant, { type, resource_id: options.resourceId }, 'cli');
      });
      const event = fired.event as { id: string; type: string; name: string | null };
      output(
        json,
        fired,
        `triggered ${event.type} ${event.id}${event.name ? ` (${event.name})` : ''}: queued for ${count(fired.webhooks, 'webhook')}`,
      );
    });
}
