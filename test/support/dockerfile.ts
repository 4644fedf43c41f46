/**
 * The Dockerfile read as its instructions, and the steps marked `# package-test: <name>`: the commands
 * `npm run test:package` runs exactly as written (test/package/production-install.ts), so that the image's
 * install and the tested install cannot drift apart.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './root.js';

export { ROOT };

export interface Instruction {
  /** Upper-case keyword: FROM, RUN, COPY, … */
  keyword: string;
  /** The rest of the instruction, continuation lines joined with a space. */
  args: string;
  /** The `package-test:` marker on the comment line right above it, if any. */
  marker?: string;
}

export function dockerfile(file = path.join(ROOT, 'Dockerfile')): Instruction[] {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const out: Instruction[] = [];
  let marker: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (line === '') {
      marker = undefined;
      continue;
    }
    if (line.startsWith('#')) {
      const m = /^#\s*package-test:\s*(\S+)\s*$/.exec(line);
      if (m) marker = m[1];
      continue;
    }
    let text = line;
    while (text.endsWith('\\') && i + 1 < lines.length) {
      text = `${text.slice(0, -1).trimEnd()} ${(lines[++i] as string).trim()}`;
    }
    const m = /^(\S+)\s+([\s\S]*)$/.exec(text);
    if (!m) throw new Error(`Dockerfile: cannot read "${text}"`);
    out.push({ keyword: (m[1] as string).toUpperCase(), args: m[2] as string, ...(marker ? { marker } : {}) });
    marker = undefined;
  }
  return out;
}

/** The shell command of the RUN step marked `# package-test: <name>`; throws when there is not exactly one. */
export function markedStep(name: string, instructions = dockerfile()): string {
  const found = instructions.filter((i) => i.marker === name);
  if (found.length !== 1) throw new Error(`Dockerfile: ${found.length} steps marked "package-test: ${name}"`);
  const step = found[0] as Instruction;
  if (step.keyword !== 'RUN' || step.args.startsWith('['))
    throw new Error(`Dockerfile: the step marked "package-test: ${name}" must be a shell-form RUN`);
  return step.args;
}
