import { useEffect, useRef, useState } from 'preact/hooks';
import { controls, type LoggedCall, requestLog, type Tenant } from '../api';
import { Alert, useAction } from '../components';
import { toCurl } from '../curl';
import { VerifyPanel } from './request-verify';

/** How many calls the page keeps (the newest): the log itself keeps more (docs/admin.md, "Request log"). */
const KEPT = 500;

interface Filter {
  status: string;
  operation: string;
  application: string;
}

/** Who made a call, as the console shows it: the application's name (HR) or the key (Academy), and its id. */
interface Caller {
  name: string;
  /** Its id, when the name does not say it: `application 9c1e…`. */
  id?: string;
}

/** The callers of a tenant by credential id: its applications (revoked ones too), or its academy's keys. */
function callersOf(tenant: Tenant): Map<string, Caller> {
  const out = new Map<string, Caller>();
  for (const a of tenant.applications ?? []) {
    out.set(a.application_id, { name: a.name, id: `application ${a.application_id}` });
  }
  for (const k of tenant.keys ?? []) out.set(String(k.key_id), { name: `API key ${k.key_id}` });
  return out;
}

/**
 * Whether a call passes the filter: a status (`503`) or class (`5xx`), an operationId, an application's id or
 * name.
 */
function passes(call: LoggedCall, filter: Filter, callers: Map<string, Caller>): boolean {
  const status = filter.status.trim().toLowerCase();
  if (status) {
    const text = String(call.status);
    if (/^[1-5]xx$/.test(status) ? text[0] !== status[0] : text !== status) return false;
  }
  if (filter.operation.trim() && call.operation_id !== filter.operation.trim()) return false;
  const application = filter.application.trim();
  if (application && call.credential_id !== application) {
    const name = call.credential_id ? callers.get(call.credential_id)?.name : undefined;
    if (name?.toLowerCase() !== application.toLowerCase()) return false;
  }
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
  /** Counts the openings: each one (the same call again too) brings the call into view. */
  const [opened, setOpened] = useState(0);
  const detail = useRef<HTMLElement>(null);
  const [callers, setCallers] = useState<Map<string, Caller>>(new Map());
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

  // The callers' names: read with the page, and again when a call opened names a credential not known yet (an
  // application made since). Without them, a caller shows as its id.
  const unknownCaller = open?.credential_id && !callers.has(open.credential_id) ? open.credential_id : undefined;
  useEffect(() => {
    let closed = false;
    controls
      .tenant(kind, id)
      .then((tenant) => {
        if (!closed) setCallers(callersOf(tenant));
      })
      .catch(() => undefined);
    return () => {
      closed = true;
    };
  }, [kind, id, unknownCaller]);

  // An opened call is drawn below the table, often out of sight: it is scrolled to and focused (keyboard users go
  // on from it; Close brings them back to its row).
  useEffect(() => {
    if (opened === 0) return;
    detail.current?.scrollIntoView({ block: 'start' });
    detail.current?.focus({ preventScroll: true });
  }, [opened]);

  const shown = calls.filter((c) => passes(c, filter, callers));
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
      <VerifyPanel
        kind={kind}
        id={id}
        onCleared={() => {
          setCalls([]);
          setOpen(undefined);
        }}
      />
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
          <input value={filter.application} placeholder="name or id" onInput={set('application')} />
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
                {c.near_miss && (
                  <span class="tag" data-testid="near-miss" title="Failed authentication or hit no route">
                    {' '}
                    near miss: {c.near_miss.reason.replace('_', ' ')}
                  </span>
                )}
              </td>
              <td data-label="Status">{c.status}</td>
              <td data-label="ms">{c.duration_ms}</td>
              <td>
                <button
                  type="button"
                  class="secondary"
                  onClick={() => {
                    setOpen(c);
                    setOpened((n) => n + 1);
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
        <section class="card call" aria-labelledby="call-title" tabIndex={-1} ref={detail} data-testid="call">
          <h2 id="call-title">
            #{open.seq}: {open.method} {open.path} → {open.status}
          </h2>
          <p class="muted">
            {open.operation_id ?? 'no operation'}, {open.duration_ms} ms
            {open.credential_id && <CallerOf id={open.credential_id} callers={callers} />}
            {open.fault_id ? `, shaped by fault ${open.fault_id}` : ''}
          </p>
          {open.near_miss && <NearMissOf call={open} />}
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
          <button
            type="button"
            class="secondary"
            onClick={() => {
              const seq = open.seq;
              setOpen(undefined);
              requestAnimationFrame(() =>
                document.querySelector<HTMLButtonElement>(`tr[data-seq="${seq}"] button`)?.focus(),
              );
            }}
          >
            Close
          </button>
        </section>
      )}
    </section>
  );
}

/** `, by sync (application 9c1e…)`: the caller's name, its id after it; the id alone when the name is unknown. */
function CallerOf(props: { id: string; callers: Map<string, Caller> }) {
  const caller = props.callers.get(props.id);
  if (!caller) {
    return (
      <>
        , by <code data-testid="caller">{props.id}</code>
      </>
    );
  }
  return (
    <>
      , by{' '}
      <strong data-testid="caller" title={caller.id}>
        {caller.name}
      </strong>
      {caller.id && ` (${caller.id})`}
    </>
  );
}

/** What a near miss missed: its reason, the served operations it probably meant, the real API's one if unserved. */
function NearMissOf(props: { call: LoggedCall }) {
  const miss = props.call.near_miss;
  if (!miss) return null;
  return (
    <div data-testid="near-miss-detail">
      <p>
        <strong>Near miss: {miss.reason.replace('_', ' ')}.</strong>
        {miss.unserved_reference_operation &&
          ` ${miss.unserved_reference_operation.method} ${miss.unserved_reference_operation.path}: this operation exists in the real API but Atrium does not serve it yet.`}
      </p>
      {miss.suggestions.length > 0 && (
        <>
          <p>Closest operations:</p>
          <ul>
            {miss.suggestions.map((s) => (
              <li key={`${s.method} ${s.path}`}>
                <code>
                  {s.method} {s.path}
                </code>{' '}
                ({s.operation_id})
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function headerLines(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}
