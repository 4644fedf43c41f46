import fs from 'node:fs';

/** One path the server keeps secrets or data in, and what is wrong with its permissions (if anything). */
export interface PermissionFinding {
  path: string;
  /** Octal permission bits, e.g. `0600`. */
  mode: string;
  /** What the path should be. */
  expected: string;
  ok: boolean;
}

function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8).padStart(3, '0')}`;
}

/**
 * The permissions of the given paths (`[path, expected mode]`; those that do not exist are skipped): each must be its
 * owner's only, nothing granted to the group or to others. `atrium doctor` reports them; the server warns at start.
 */
export function checkPermissions(paths: ReadonlyArray<readonly [string, string]>): PermissionFinding[] {
  const findings: PermissionFinding[] = [];
  for (const [file, expected] of paths) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      continue;
    }
    findings.push({ path: file, mode: octal(stat.mode), expected, ok: (stat.mode & 0o077) === 0 });
  }
  return findings;
}
