/** `atrium admin …`: the operator tokens of the admin API and its audit log. */
import { type Command, InvalidArgumentError } from 'commander';
import { describeScope } from '../../admin/tokens/service.js';
import { CliError } from '../failure.js';
import { command, examples, integerIn, nonEmpty, output, textUpTo, withServices } from './shared.js';

/** One `--tenant`: `hr/<client_id>` or `academy/<acadId>`, added to those given before. */
function tenantOption(value: string, previous: string[]): string[] {
  if (!/^(hr\/[^/\s]{1,255}|academy\/[1-9][0-9]{0,8})$/.test(value)) {
    throw new InvalidArgumentError('must be hr/CLIENT_ID or academy/ACAD_ID');
  }
  return [...previous, value];
}

export function addAdminCommands(program: Command): void {
  const admin = command(program, 'admin', '<command> [options]', 'operators of the admin API: tokens, audit log')
    .helpCommand(false)
    .addHelpText('after', examples('atrium admin create-token --name ci --json', 'atrium admin list-tokens'));

  command(
    admin,
    'create-token',
    '--name NAME [--tenant KIND/ID]... [--read-only] [--json]',
    'create an operator token and print it, once',
  )
    .requiredOption('--name <NAME>', "the token's name (who or what uses it), up to 255 characters", textUpTo(255))
    .option(
      '--tenant <KIND/ID>',
      'limit the token to this tenant (hr/CLIENT_ID or academy/ACAD_ID); repeat for several',
      tenantOption,
      [],
    )
    .option('--read-only', 'the token reads only: it changes nothing')
    .option('--json', 'print {"token_id", "name", "created_at", "revoked_at", "tenants", "read_only", "token"}')
    .addHelpText(
      'after',
      `${examples(
        'atrium admin create-token --name "CI pipeline" --json',
        'atrium admin create-token --name partner --tenant hr/3f2a… --tenant academy/12 --read-only',
      )}
The token is printed only now; Atrium keeps its SHA-256 only (docs/admin.md). With --tenant it sees and controls
those tenants only, in the admin API and the console ("Tokens scoped to tenants").
`,
    )
    .action(async (options: { name: string; tenant: string[]; readOnly?: boolean; json?: boolean }) => {
      const json = options.json === true;
      const made = await withServices(json, async (services) => {
        for (const tenant of options.tenant) {
          const [kind = '', id = ''] = tenant.split('/');
          await services.adminTenants.resolve(kind, id).catch(() => {
            throw new CliError(`--tenant ${tenant}: no such tenant (see atrium hr list-clients, atrium academy list)`);
          });
        }
        const scope = {
          tenants: options.tenant.length > 0 ? options.tenant : null,
          readOnly: options.readOnly === true,
        };
        return services.adminTokens.create(options.name, 'cli', scope);
      });
      const scope = describeScope({ tenants: made.tenants, readOnly: made.read_only });
      output(
        json,
        made,
        `admin token ${made.token_id} (${made.name}${scope ? `; ${scope}` : ''}); shown only now:\n${made.token}`,
      );
    });

  command(admin, 'revoke-token', '--id ID [--json]', 'revoke an operator token: refused from its next use on')
    .requiredOption('--id <ID>', "the token's id (from create-token or list-tokens)", nonEmpty)
    .option('--json', 'print {"token_id", "name", "created_at", "revoked_at"}')
    .addHelpText('after', examples('atrium admin revoke-token --id 6f1c…'))
    .action(async (options: { id: string; json?: boolean }) => {
      const json = options.json === true;
      const token = await withServices(json, (services) => services.adminTokens.revoke(options.id, 'cli'));
      output(json, token, `admin token ${token.token_id} (${token.name}) revoked at ${token.revoked_at}`);
    });

  command(admin, 'list-tokens', '[--json]', 'every operator token, revoked ones too; never a token')
    .option('--json', 'print {"tokens": [{"token_id", "name", "created_at", "revoked_at", "tenants", "read_only"}]}')
    .addHelpText('after', examples('atrium admin list-tokens --json'))
    .action(async (options: { json?: boolean }) => {
      const json = options.json === true;
      const tokens = await withServices(json, (services) => services.adminTokens.list());
      const lines = [`admin tokens: ${tokens.length}`];
      for (const t of tokens) {
        const scope = describeScope({ tenants: t.tenants, readOnly: t.read_only });
        lines.push(
          `  ${t.token_id}  ${t.name}  (created ${t.created_at}${t.revoked_at ? `; revoked ${t.revoked_at}` : ''}${scope ? `; ${scope}` : ''})`,
        );
      }
      output(json, { tokens }, lines.join('\n'));
    });

  command(admin, 'audit-log', '[--limit N] [--json]', 'the latest admin actions, newest first')
    .option(
      '--limit <N>',
      'how many, 1 to 1,000 (default 50)',
      integerIn(1, 1000, 'a number of actions (1 to 1,000)'),
      50,
    )
    .option('--json', 'print {"actions": [{"seq", "at", "actor", "action", "target", "detail"}]}')
    .addHelpText('after', examples('atrium admin audit-log --limit 10'))
    .action(async (options: { limit: number; json?: boolean }) => {
      const json = options.json === true;
      const actions = await withServices(json, (services) => services.adminAudit.list(options.limit));
      const lines = actions.map((a) => `${a.at}  ${a.actor}  ${a.action}${a.target ? `  ${a.target}` : ''}`);
      output(json, { actions }, lines.length ? lines.join('\n') : 'no admin actions yet');
    });
}
