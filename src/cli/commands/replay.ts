/** `atrium replay DIR --against URL`: a recording's calls sent to an Atrium, the answers compared (cli/replay/). */
import { type Command, InvalidArgumentError } from 'commander';
import { io } from '../io.js';
import { command, examples, nonEmpty } from './shared.js';

function origin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('must be a URL (http://host:port)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError('must be http or https');
  if (url.search || url.hash) throw new InvalidArgumentError('must have no query or fragment');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function collect(value: string, previous: string[]): string[] {
  if (!value.startsWith('/')) throw new InvalidArgumentError('must be a JSON pointer (/body/…)');
  return [...previous, value];
}

interface ReplayCommandOptions {
  against: string;
  clientId?: string;
  applicationId?: string;
  applicationSecret?: string;
  acadId?: string;
  apikey?: string;
  ignore: string[];
  json?: boolean;
}

export function addReplayCommand(program: Command): void {
  command(
    program,
    'replay',
    'DIR --against URL [--client-id ID --application-id ID --application-secret S] [--acad-id N --apikey K] [--ignore POINTER]... [--json]',
    "send a recording's calls to an Atrium and compare the answers",
  )
    .argument('<DIR>', 'a recording made by atrium proxy --record DIR')
    .requiredOption('--against <URL>', 'the Atrium to replay against (http://host:port)', origin)
    .option('--client-id <ID>', "the HR tenant's client id (or ATRIUM_REPLAY_CLIENT_ID)", nonEmpty)
    .option('--application-id <ID>', 'its application id (or ATRIUM_REPLAY_APPLICATION_ID)', nonEmpty)
    .option(
      '--application-secret <SECRET>',
      'its application secret (better: ATRIUM_REPLAY_APPLICATION_SECRET)',
      nonEmpty,
    )
    .option('--acad-id <N>', "the academy's id (or ATRIUM_REPLAY_ACAD_ID)", nonEmpty)
    .option('--apikey <KEY>', "the academy's API key (better: ATRIUM_REPLAY_APIKEY)", nonEmpty)
    .option(
      '--ignore <POINTER>',
      'leave this JSON pointer out of the comparison (* for any segment; repeatable)',
      collect,
      [],
    )
    .option('--json', 'print the report as one JSON document')
    .addHelpText(
      'after',
      `${examples(
        'atrium replay ./rec --against http://127.0.0.1:8080 --client-id C --application-id A --application-secret S',
        'atrium replay ./rec --against http://127.0.0.1:8080 --acad-id 1 --apikey K --ignore /body/events/*/seats --json',
      )}
Each call of the recording is sent in order; each answer is compared with the recorded one after normalising ids,
dates, cursors and links, and each operation prints "same" or its differences (JSON pointer, recorded value,
replayed value). Exit code 1 when an operation differs or could not be replayed. The rules: docs/replay.md.
`,
    )
    .action(async (dir: string, options: ReplayCommandOptions) => {
      const env = io().env;
      const given = (flag: string | undefined, name: string) => flag ?? (env[name]?.trim() || undefined);
      const credentials = Object.fromEntries(
        Object.entries({
          clientId: given(options.clientId, 'ATRIUM_REPLAY_CLIENT_ID'),
          applicationId: given(options.applicationId, 'ATRIUM_REPLAY_APPLICATION_ID'),
          applicationSecret: given(options.applicationSecret, 'ATRIUM_REPLAY_APPLICATION_SECRET'),
          acadId: given(options.acadId, 'ATRIUM_REPLAY_ACAD_ID'),
          apikey: given(options.apikey, 'ATRIUM_REPLAY_APIKEY'),
        }).filter(([, v]) => v !== undefined),
      );
      const { replay, reportText } = await import('../replay/replay.js');
      const report = await replay({ dir, against: options.against, credentials, ignore: options.ignore });
      io().stdout.write(options.json === true ? `${JSON.stringify(report)}\n` : reportText(report));
      if (report.different > 0) io().exitCode = 1;
    });
}
