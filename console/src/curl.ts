/**
 * A logged call as a `curl` command line (the console's "Copy as curl"). The log keeps secrets redacted
 * (`[REDACTED]`); each becomes a placeholder naming what to put there (`<access_token>`, `<apikey>`), so the command
 * runs once the caller fills them in, and a copied command never carries a secret.
 */

export interface CallForCurl {
  method: string;
  path: string;
  request: { headers: Record<string, string>; body: string | null };
}

const REDACTED = '[REDACTED]';
/** Headers curl sets itself, or that describe one connection only. */
const SKIPPED = new Set(['host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'accept-encoding']);

/** A word for the shell, in single quotes (a single quote inside is closed, escaped and reopened). */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function headerValue(name: string, value: string): string {
  if (!value.includes(REDACTED)) return value;
  if (name === 'authorization') {
    const scheme = value.split(' ', 1)[0]?.toLowerCase();
    if (scheme === 'bearer') return 'Bearer <access_token>';
    if (scheme === 'basic') return 'Basic <base64 of application_id:application_secret>';
  }
  return value.replaceAll(REDACTED, `<${name}>`);
}

/** `name=[REDACTED]` in a query string → `name=<name>`. */
function pathWithPlaceholders(path: string): string {
  return path.replace(
    /([?&])([^=&#]+)=\[REDACTED\]/g,
    (_m, sep: string, name: string) => `${sep}${name}=<${decodeURIComponent(name).replace(/\[\]$/, '')}>`,
  );
}

/** `"name": "[REDACTED]"` in JSON, `name=[REDACTED]` in a form → the name as a placeholder. */
function bodyWithPlaceholders(body: string): string {
  return body
    .replace(/"([^"\\]+)"(\s*:\s*)"\[REDACTED\]"/g, (_m, name: string, colon: string) => `"${name}"${colon}"<${name}>"`)
    .replace(/(^|&)([^=&]+)=\[REDACTED\]/g, (_m, sep: string, name: string) => `${sep}${name}=<${name}>`);
}

/** The call as a command line: `curl -X GET 'https://…' -H '…' --data-raw '…'`. */
export function toCurl(call: CallForCurl, origin: string): string {
  const parts = ['curl', '-X', call.method, shellQuote(`${origin}${pathWithPlaceholders(call.path)}`)];
  for (const [name, value] of Object.entries(call.request.headers)) {
    if (SKIPPED.has(name)) continue;
    parts.push('-H', shellQuote(`${name}: ${headerValue(name, value)}`));
  }
  const body = call.request.body;
  // A body the log did not keep (bytes, a stream) is described between brackets: it cannot be replayed.
  if (body !== null && !/^\[\d+ bytes of .*, not kept\]$/.test(body)) {
    parts.push('--data-raw', shellQuote(bodyWithPlaceholders(body)));
  }
  return parts.join(' ');
}
