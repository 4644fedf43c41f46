/** `atrium help [COMMAND...]` and `atrium version`. */
import type { Command } from 'commander';
import { buildInfo } from '../../platform/build-info.js';
import { CliError } from '../failure.js';
import { io } from '../io.js';
import { command, examples } from './shared.js';

export function addHelpCommands(program: Command): void {
  command(program, 'help', '[COMMAND...]', 'show this help, or the help of a command')
    .argument('[command...]', 'a command, as typed after atrium')
    .addHelpText('after', examples('atrium help', 'atrium help hr create-client'))
    .action((words: string[]) => {
      let cmd: Command = program;
      for (const [i, word] of words.entries()) {
        const sub = cmd.commands.find((c) => c.name() === word);
        if (!sub) {
          const typed = words.slice(0, i + 1).join(' ');
          throw new CliError(`unknown command '${typed}' (see atrium --help)`, 2);
        }
        cmd = sub;
      }
      cmd.outputHelp();
    });

  command(program, 'version', '', 'print the version (as --version)')
    .addHelpText('after', examples('atrium version'))
    .action(() => {
      io().stdout.write(`${buildInfo().version}\n`);
    });
}
