/**
 * What the CLI prints when a command fails: one line, `atrium: …`, never a stack trace unless asked for (`--debug`
 * or `DEBUG`). Failures of the machine around Atrium (a port in use, a database that does not answer, a data
 * directory that is a file) are named in words a user can act on; nothing secret (a password in DATABASE_URL) is
 * ever part of the line.
 */
import { ConfigError } from '../platform/config.js';
import { DomainError } from '../platform/errors.js';
import { MasterKeyError } from '../platform/security/secret-box.js';

/** A failure the CLI has already put into words (a usage error, a refused restore, a worker's start-up failure). */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    /** 2 for usage errors, 1 otherwise. */
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

interface SystemError extends Error {
  code?: string;
  errno?: number;
  syscall?: string;
  port?: number;
  address?: string;
  path?: string;
  hostname?: string;
  cause?: unknown;
}

/** Where the failure happened, for the words: the settings the command ran with. */
export interface FailureContext {
  port?: number;
  host?: string;
  dataDir?: string;
  databaseUrl?: string | undefined;
}

const CONNECT_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed',
};

/** PostgreSQL error codes of a refused connection (class 28: authorization, 3D000: no such database, 57P03). */
const PG_CONNECT_CODES = new Set(['28000', '28P01', '3D000', '57P03', '53300']);

/** `host:port/db` of a PostgreSQL URL: never the user's password, nor the query string (which may hold one). */
export function postgresTarget(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.hostname || 'localhost'}:${url.port || 5432}${url.pathname === '/' ? '' : url.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

function chain(error: unknown): SystemError[] {
  const out: SystemError[] = [];
  let current: unknown = error;
  while (current instanceof Error && out.length < 5) {
    out.push(current as SystemError);
    if (current instanceof AggregateError && current.errors[0] instanceof Error) current = current.errors[0];
    else current = (current as SystemError).cause;
  }
  return out;
}

/**
 * The one line for a failure of the machine around Atrium, or undefined when the error is something else. Looks
 * through `cause` (a migration that failed to connect) and `AggregateError` (a host with several addresses).
 */
export function describeInfrastructureFailure(error: unknown, context: FailureContext = {}): string | undefined {
  for (const e of chain(error)) {
    const code = e.code ?? '';
    if (e.syscall === 'listen' || (code === 'EADDRINUSE' && e.port !== undefined)) {
      const port = e.port ?? context.port;
      if (code === 'EADDRINUSE') return `port ${port} is in use; set PORT or --port`;
      if (code === 'EACCES')
        return `not allowed to listen on port ${port} (ports below 1024 need privileges); set PORT or --port`;
      if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
        return `cannot listen on ${e.address ?? context.host}: no such address on this machine; set HOST or --host`;
      }
    }
    if (context.databaseUrl && (CONNECT_REASONS[code] || PG_CONNECT_CODES.has(code))) {
      const reason = CONNECT_REASONS[code] ?? e.message;
      return `cannot connect to PostgreSQL at ${postgresTarget(context.databaseUrl)}: ${reason}`;
    }
    if (context.databaseUrl && /^Connection terminated|timeout expired/i.test(e.message)) {
      return `cannot connect to PostgreSQL at ${postgresTarget(context.databaseUrl)}: ${e.message}`;
    }
    if (code === 'ENOTDIR' && context.dataDir) {
      return `the data directory ${context.dataDir} is not a directory (a file is in the way); set ATRIUM_DATA_DIR`;
    }
    if ((code === 'EACCES' || code === 'EPERM' || code === 'EROFS') && e.path) {
      return `cannot write ${e.path}: ${code === 'EROFS' ? 'read-only file system' : 'permission denied'}`;
    }
    if (code === 'ENOSPC') return `no space left on the device${e.path ? ` (writing ${e.path})` : ''}`;
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
      return `the SQLite database in ${context.dataDir ?? 'the data directory'} is not a valid database (${e.message})`;
    }
    if (code === 'SQLITE_CANTOPEN')
      return `cannot open the SQLite database in ${context.dataDir ?? 'the data directory'}`;
    if (code === 'SQLITE_READONLY')
      return `the SQLite database in ${context.dataDir ?? 'the data directory'} is read-only`;
    if (code === 'SQLITE_FULL') return 'no space left on the device (SQLite could not write)';
  }
  return undefined;
}

/** The errors whose message is already meant for the user. */
export function isExpected(error: unknown): boolean {
  return (
    error instanceof CliError ||
    error instanceof ConfigError ||
    error instanceof DomainError ||
    error instanceof MasterKeyError
  );
}

/** The line to print for any failure, and whether it was foreseen (else the stack is worth a `--debug` run). */
export function describeFailure(error: unknown, context: FailureContext = {}): { line: string; expected: boolean } {
  const infrastructure = describeInfrastructureFailure(error, context);
  if (infrastructure) return { line: infrastructure, expected: true };
  if (isExpected(error)) return { line: (error as Error).message, expected: true };
  // By name: importing migrate.ts would load Kysely before every usage error.
  if (error instanceof Error && error.name === 'MigrationError') return { line: error.message, expected: true };
  const message = error instanceof Error ? error.message : String(error);
  return { line: `unexpected error: ${message.split('\n')[0]}`, expected: false };
}
