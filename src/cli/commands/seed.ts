/** `atrium seed`: demo tenants of both APIs, in the sizes `--size` and `--KIND N` ask for (cli/seed.ts). */
import { type Command, InvalidArgumentError } from 'commander';
import { countOf } from '../plural.js';
import type { SeedSize } from '../seed.js';
import { command, examples, integerIn, output, withServices } from './shared.js';

/** The things `atrium seed` can be told how many of, with `--KIND N`. */
const SEED_KINDS = [
  ['employees', 'employees'],
  ['users', 'HR users'],
  ['documents', 'employee documents'],
  ['requests', 'requests (two comments each)'],
  ['articles', 'knowledge base articles'],
  ['processes', 'onboarding processes'],
] as const;
type SeedKind = (typeof SEED_KINDS)[number][0];

function seedCount(kind: SeedKind) {
  return integerIn(0, 1_000_000, `a number of ${kind} (0 to 1,000,000)`);
}

function seedSize(value: string): SeedSize {
  if (value !== 'small' && value !== 'large') throw new InvalidArgumentError('must be small or large');
  return value;
}

export function addSeedCommand(program: Command): void {
  const seedCommand = command(
    program,
    'seed',
    '[--size small|large] [--employees N] [--requests N] … [--json]',
    'fill demo tenants of both APIs and print fresh credentials',
  )
    .option(
      '--size <SIZE>',
      'small (100 employees, 50 requests …) or large (10,000 employees, 50,000 requests …)',
      seedSize,
      'small',
    )
    .option('--json', 'print {"hr": {...}, "academy": {...}, "summary": {...}}');
  for (const [kind, what] of SEED_KINDS) {
    seedCommand.option(
      `--${kind} <N>`,
      `how many ${what} to make, 0 to 1,000,000 (instead of --size's)`,
      seedCount(kind),
    );
  }
  seedCommand
    .addHelpText(
      'after',
      `${examples('atrium seed --json', 'atrium seed --size large', 'atrium seed --employees 50000 --requests 0')}
A progress bar is drawn on standard error when it is a terminal (never with --json). What each size makes, and
what a second run does: docs/cli.md.
`,
    )
    .action(async (options: { size: SeedSize; json?: boolean } & Partial<Record<SeedKind, number>>) => {
      const json = options.json === true;
      const [{ seed, SEED_SIZES }, { progressBar }] = await Promise.all([
        import('../seed.js'),
        import('../progress.js'),
      ]);
      const counts = { ...SEED_SIZES[options.size] };
      for (const [kind] of SEED_KINDS) counts[kind] = options[kind] ?? counts[kind];
      const progress = progressBar(json);
      const result = await withServices(json, (services) =>
        seed(services, { ...counts, ...(progress ? { progress } : {}) }),
      );
      const made = Object.entries(result.summary)
        .map(([kind, n]) => countOf(n, kind))
        .join(', ');
      output(
        json,
        result,
        `made or updated (HR): ${made}; and the demo academy\n${JSON.stringify({ hr: result.hr, academy: result.academy }, null, 2)}`,
      );
    });
}
