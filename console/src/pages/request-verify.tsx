import { useState } from 'preact/hooks';
import { type Matcher, requestLog, type Verification } from '../api';
import { Alert, Confirm, useAction } from '../components';

interface Fields {
  method: string;
  path: string;
  status: string;
  operation: string;
  count: string;
}

/** The form's fields as a matcher: the empty ones left out; a status class (`2xx`) as text, a status as a number. */
function matcherOf(f: Fields): Matcher {
  const m: Matcher = {};
  if (f.method.trim()) m.method = f.method.trim();
  if (f.path.trim()) m.path = f.path.trim();
  if (f.operation.trim()) m.operation_id = f.operation.trim();
  const status = f.status.trim().toLowerCase();
  if (/^[1-5]xx$/.test(status)) m.status = status as Matcher['status'];
  else if (status) m.status = Number(status);
  if (f.count.trim()) m.count = Number(f.count.trim());
  return m;
}

function show(value: unknown): string {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}

/**
 * Verification of the tenant's calls (`POST …/requests/verify`, docs/admin.md, "Verification"): a matcher's main
 * criteria, and what matched; when too few did, the closest calls with what differed. Also empties the log.
 */
export function VerifyPanel(props: { kind: string; id: string; onCleared: () => void }) {
  const [fields, setFields] = useState<Fields>({ method: '', path: '', status: '', operation: '', count: '' });
  const [result, setResult] = useState<Verification | undefined>();
  const [asking, setAsking] = useState(false);
  const [cleared, setCleared] = useState<number | undefined>();
  const { error, busy, run } = useAction();
  const set = (key: keyof Fields) => (e: Event) =>
    setFields({ ...fields, [key]: (e.target as HTMLInputElement).value });

  return (
    <section class="card" aria-labelledby="verify-title">
      <h2 id="verify-title">Verify calls</h2>
      {error && <Alert>{error}</Alert>}
      <form
        class="inline"
        aria-label="Verify calls"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            setResult(await requestLog.verify(props.kind, props.id, matcherOf(fields)));
          });
        }}
      >
        <label>
          Method
          <input value={fields.method} placeholder="POST" onInput={set('method')} size={7} />
        </label>
        <label>
          Path pattern
          <input value={fields.path} placeholder="/api/v2/client/employees/{id}" onInput={set('path')} />
        </label>
        <label>
          Operation
          <input value={fields.operation} placeholder="hr_employees_create" onInput={set('operation')} />
        </label>
        <label>
          Status
          <input value={fields.status} placeholder="2xx" onInput={set('status')} size={5} />
        </label>
        <label>
          Times
          <input value={fields.count} placeholder="any" inputMode="numeric" onInput={set('count')} size={5} />
        </label>
        <button type="submit" disabled={busy}>
          Verify
        </button>
        <button type="button" class="secondary" onClick={() => setAsking(true)}>
          Empty the log
        </button>
      </form>
      <p role="status" data-testid="verification">
        {result
          ? `${result.ok ? 'Verified' : 'Not verified'}: ${result.matched} call${result.matched === 1 ? '' : 's'} matched (${result.expected} asked, ${result.scanned} scanned).`
          : cleared !== undefined
            ? `The log is empty: ${cleared} call${cleared === 1 ? '' : 's'} deleted.`
            : ''}
      </p>
      {result && result.closest.length > 0 && (
        <ol data-testid="closest" aria-label="The closest calls">
          {result.closest.map(({ call, differences }) => (
            <li key={call.seq}>
              <code>
                #{call.seq} {call.method} {call.path} → {call.status}
              </code>
              <ul>
                {differences.map((d) => (
                  <li key={d.field}>
                    {d.field}: expected <code>{show(d.expected)}</code>, got <code>{show(d.actual)}</code>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
      <Confirm
        open={asking}
        title="Empty the request log?"
        confirmLabel="Empty the log"
        onConfirm={() => {
          setAsking(false);
          void run(async () => {
            const { deleted } = await requestLog.clear(props.kind, props.id);
            setResult(undefined);
            setCleared(deleted);
            props.onCleared();
          });
        }}
        onCancel={() => setAsking(false)}
      >
        <p>Every logged call of the tenant is deleted: a test starts from an empty log.</p>
      </Confirm>
    </section>
  );
}
