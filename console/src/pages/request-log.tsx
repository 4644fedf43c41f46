import { useEffect, useState } from 'preact/hooks';
import { type LoggedCall, requestLog } from '../api';
import { Alert, useAction } from '../components';
import { toCurl } from '../curl';

/** How many calls the page keeps (the newest): the log itself keeps more (docs/admin.md, "Request log"). */
const KEPT = 500;

interface Filter {
  status: string;
  operation: string;
  application: string;
}

/** Whether a call passes the filter: a status (`503`) or class (`5xx`), an operationId, an application id. */
function passes(call: LoggedCall, filter: Filter): boolean {
  const status = filter.status.trim().toLowerCase();
  if (status) {
    const text = String(call.status);
    if (/^[1-5]xx$/.test(status) ? text[0] !== status[0] : text !== status) return false;
  }
  if (filter.operation.trim() && call.operation_id !== filter.operation.trim()) return false;
  if (filter.application.trim() && call.credential_id !== filter.application.trim()) return false;
  return true;
}

/**
 * A tenant's request log, live: the newest calls, then each new one as the server logs it (Server-Sent Events,
 * `…/requests/tail`, within about a second of the call). Open a call to see its request and answer, and copy it as
 * a `curl` command with its secrets left as placeholders.
 */
export function RequestLogPage(props: { params: Record<string, string> }) {
  const kind = props.params.kind ?? '';
  const id = props.params.id ?? '';
  const [calls, setCalls] = useState<LoggedCall[]>([]);
  const [open, setOpen] = useState<LoggedCall | undefined>();
  const [live, setLive] = useState(false);
  const [copied, setCopied] = useState(false);
  const [filter, setFilter] = useState<Filter>({ status: '', operation: '', application: '' });
  const { error, run } = useAction();

  useEffect(() => {
    let source: EventSource | undefined;
    let closed = false;
    void run(async () => {
      const newest = await requestLog.list(kind, id, {});
      if (closed) return;
      setCalls(newest);
      source = requestLog.tail(kind, id, newest[0]?.seq ?? 0);
      source.onopen = () => setLive(true);
      source.onerror = () => setLive(false);
      source.addEventListener('request', (event) => {
        const call = JSON.parse((event as MessageEvent<string>).data) as LoggedCall;
        setCalls((shown) => (shown.some((c) => c.seq === call.seq) ? shown : [call, ...shown].slice(0, KEPT)));
      });
    });
    return () => {
      closed = true;
      source?.close();
    };
  }, [kind, id]);

  const shown = calls.filter((c) => passes(c, filter));
  const copy = async (call: LoggedCall) => {
    await navigator.clipboard.writeText(toCurl(call, location.origin)).catch(() => undefined);
    setCopied(true);
  };
  const set = (key: keyof Filter) => (e: Event) =>
    setFilter({ ...filter, [key]: (e.target as HTMLInputElement).value });

  return (
    <section aria-labelledby="log-title">
      <p>
        <a href={`/console/tenants/${kind}/${encodeURIComponent(id)}`}>← The tenant</a>
      </p>
      <h1 id="log-title">Request log</h1>
      <p class="muted" role="status" data-testid="live">
        {live ? 'Live: new calls appear as they are logged.' : 'Connecting…'}
      </p>
      {error && <Alert>{error}</Alert>}
      <form class="inline" aria-label="Filter the calls" onSubmit={(e) => e.preventDefault()}>
        <label>
          Status
          <input value={filter.status} placeholder="5xx" onInput={set('status')} size={6} />
        </label>
        <label>
          Operation
          <input value={filter.operation} placeholder="hr_employees_list" onInput={set('operation')} />
        </label>
        <label>
          Application
          <input value={filter.application} placeholder="application or key id" onInput={set('application')} />
        </label>
      </form>
      <table>
        <caption class="visually-hidden">Logged calls, newest first</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Call</th>
            <th scope="col">Status</th>
            <th scope="col">ms</th>
            <th scope="col">
              <span class="visually-hidden">Open</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.length === 0 && (
            <tr>
              <td colSpan={5} class="muted">
                No call yet.
              </td>
            </tr>
          )}
          {shown.map((c) => (
            <tr key={c.seq} data-seq={c.seq}>
              <td data-label="When">{c.at}</td>
              <td data-label="Call">
                <code>
                  {c.method} {c.path}
                </code>
                {c.fault_id && <span class="tag"> fault</span>}
              </td>
              <td data-label="Status">{c.status}</td>
              <td data-label="ms">{c.duration_ms}</td>
              <td>
                <button
                  type="button"
                  class="secondary"
                  onClick={() => {
                    setOpen(c);
                    setCopied(false);
                  }}
                >
                  Open #{c.seq}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {open && (
        <section class="card call" aria-labelledby="call-title">
          <h2 id="call-title">
            #{open.seq}: {open.method} {open.path} → {open.status}
          </h2>
          <p class="muted">
            {open.operation_id ?? 'no operation'}, {open.duration_ms} ms
            {open.credential_id ? `, by ${open.credential_id}` : ''}
            {open.fault_id ? `, shaped by fault ${open.fault_id}` : ''}
          </p>
          <div class="actions">
            <button type="button" onClick={() => void copy(open)}>
              Copy as curl
            </button>
            <span role="status" class="muted">
              {copied ? 'Copied, with its secrets as placeholders.' : ''}
            </span>
          </div>
          <pre data-testid="curl">{toCurl(open, location.origin)}</pre>
          <h3>Request</h3>
          <pre>{headerLines(open.request.headers)}</pre>
          {open.request.body !== null && <pre>{open.request.body}</pre>}
          <h3>Response</h3>
          <pre>{headerLines(open.response.headers)}</pre>
          {open.response.body !== null && <pre>{open.response.body}</pre>}
          <button type="button" class="secondary" onClick={() => setOpen(undefined)}>
            Close
          </button>
        </section>
      )}
    </section>
  );
}

function headerLines(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}
