/** `atrium academy …`: Academy API tenants: academies, their keys, their directory. */
import type { Command } from 'commander';
import { academyTenantId } from '../../platform/db/tenant.js';
import { CliError } from '../failure.js';
import { countOf } from '../plural.js';
import { command, examples, integerIn, nonEmpty, output, withServices } from './shared.js';

const academyId = integerIn(0, 999_999_999, 'an academy id (an integer)');

export function addAcademyCommands(program: Command): void {
  const academy = command(program, 'academy', '<command> [options]', 'Academy API tenants: academies, keys, directory')
    .helpCommand(false)
    .addHelpText('after', examples('atrium academy create --name "Demo academy"', 'atrium academy import --help'));

  command(academy, 'create', '--name NAME [--json]', 'create an academy; its API key is shown only now')
    .requiredOption('--name <NAME>', "the academy's name", nonEmpty)
    .option('--json', 'print {"acadId", "apikey", "superAdminId"}')
    .addHelpText('after', examples('atrium academy create --name "Demo academy" --json'))
    .action(async (options: { name: string; json?: boolean }) => {
      const json = options.json === true;
      const result = await withServices(json, (services) => services.academies.create(options.name));
      output(
        json,
        result,
        `acadId: ${result.acadId}\napikey: ${result.apikey}\nsuperAdminId: ${result.superAdminId}\n(the key is shown only now)`,
      );
    });

  command(
    academy,
    'rotate-key',
    '--acad-id N [--json]',
    'give an academy a new API key; the previous keys work for ATRIUM_KEY_GRACE_SECONDS more',
  )
    .requiredOption('--acad-id <N>', 'the academy', academyId)
    .option('--json', 'print {"acadId", "apikey", "previousKeysExpireAt"}')
    .addHelpText('after', examples('atrium academy rotate-key --acad-id 1 --json'))
    .action(async (options: { acadId: number; json?: boolean }) => {
      const json = options.json === true;
      const result = await withServices(json, (services) => services.academies.rotateKey(options.acadId));
      output(
        json,
        result,
        `acadId: ${result.acadId}\napikey: ${result.apikey}\nprevious keys stop working at ${result.previousKeysExpireAt}`,
      );
    });

  command(
    academy,
    'import',
    '--acad-id N --file PATH [--json]',
    'upsert users, categories, courses, curriculums and venues from a JSON file (docs/academy-directory.md)',
  )
    .requiredOption('--acad-id <N>', 'the academy', academyId)
    .requiredOption('--file <PATH>', 'the directory file (JSON)', nonEmpty)
    .option(
      '--json',
      'print {"acadId", "imported": {"users", "categories", "courses", "curriculums", "venues", "content", "enrollments"}}',
    )
    .addHelpText('after', examples('atrium academy import --acad-id 1 --file directory.json'))
    .action(async (options: { acadId: number; file: string; json?: boolean }) => {
      const json = options.json === true;
      const { readFile } = await import('node:fs/promises');
      let text: string;
      try {
        text = await readFile(options.file, 'utf8');
      } catch (err) {
        throw new CliError(`cannot read ${options.file}: ${(err as Error).message}`);
      }
      const { acadId } = options;
      const imported = await withServices(json, (services) =>
        services.directory.importText(academyTenantId(acadId), text),
      );
      output(
        json,
        { acadId, imported },
        `academy ${acadId}: imported ${Object.entries(imported)
          .map(([section, n]) => countOf(n, section))
          .join(', ')}`,
      );
    });
}
