import { useEffect, useState } from 'preact/hooks';
import { type Clock, controls, type FaultRule, type Snapshot, type Tenant } from '../api';
import { Alert, Confirm, useAction } from '../components';
import { dataPath } from '../data-browser';
import { RESOURCES } from '../resources';

type Ask =
  | { kind: 'restore'; name: string }
  | { kind: 'delete-snapshot'; name: string }
  | { kind: 'reset' }
  | { kind: 'clear-clock' }
  | undefined;

/**
 * One tenant's sandbox controls (docs/admin.md): its clock, its fault rules and its snapshots. Whatever cannot be
 * undone (a restore, a reset, deleting a snapshot) asks first.
 */
export function TenantPage(props: { params: Record<string, string> }) {
  const kind = props.params.kind ?? '';
  const id = props.params.id ?? '';
  const [tenant, setTenant] = useState<Tenant | undefined>();
  const [clock, setClock] = useState<Clock | undefined>();
  const [faults, setFaults] = useState<FaultRule[]>([]);
  const [snapshots, setSnapshots] = useState<Snapshot[]>([]);
  const [operations, setOperations] = useState<string[]>([]);
  const [notice, setNotice] = useState<string | undefined>();
  const [ask, setAsk] = useState<Ask>();
  const { error, busy, run } = useAction();

  const reload = async () => {
    const [t, c, f, s] = await Promise.all([
      controls.tenant(kind, id),
      controls.clock(kind, id),
      controls.faults(kind, id),
      controls.snapshots(kind, id),
    ]);
    setTenant(t);
    setClock(c);
    setFaults(f);
    setSnapshots(s);
  };
  useEffect(() => {
    void run(async () => {
      const [listed] = await Promise.all([controls.operations(kind, id), reload()]);
      setOperations(listed);
    });
  }, [kind, id]);
  const act = (action: () => Promise<string | undefined>) =>
    run(async () => {
      setNotice(undefined);
      const said = await action();
      await reload();
      if (said) setNotice(said);
    });

  const confirm = () => {
    const asked = ask;
    setAsk(undefined);
    if (!asked) return;
    void act(async () => {
      if (asked.kind === 'restore') {
        const r = await controls.restoreSnapshot(kind, id, asked.name, 'keep');
        return `Restored ${asked.name}: ${r.restored_rows} rows put back, ${r.deleted_rows} deleted.`;
      }
      if (asked.kind === 'delete-snapshot') {
        await controls.deleteSnapshot(kind, id, asked.name);
        return `Deleted snapshot ${asked.name}.`;
      }
      if (asked.kind === 'reset') {
        const r = await controls.reset(kind, id);
        return `Reset: ${r.deleted_rows} rows deleted.`;
      }
      await controls.resetClock(kind, id);
      return "The tenant's clock is the installation's again.";
    });
  };

  const title = tenant ? `${tenant.kind === 'hr' ? 'HR client' : 'Academy'} ${tenant.name}` : 'Tenant';
  return (
    <section aria-labelledby="tenant-title">
      <p>
        <a href="/console/tenants">← Tenants</a>
      </p>
      <h1 id="tenant-title">{title}</h1>
      <p class="muted">
        <code>
          {kind}:{id}
        </code>{' '}
        · <a href={`/console/tenants/${kind}/${encodeURIComponent(id)}/log`}>Request log</a> ·{' '}
        <a href={`/console/tenants/${kind}/${encodeURIComponent(id)}/report`}>Report</a>
      </p>
      <nav class="data-links" aria-label="The tenant's data">
        <span class="muted">Data:</span>{' '}
        {RESOURCES.filter((r) => r.kind === kind).map((r) => (
          <a key={r.name} href={dataPath(r.kind, id, r.name)}>
            {r.title}
          </a>
        ))}
      </nav>
      {error && <Alert>{error}</Alert>}
      {notice && <Alert kind="info">{notice}</Alert>}

      <section class="card" aria-labelledby="clock-title">
        <h2 id="clock-title">Clock</h2>
        {clock && (
          <p data-testid="clock-now">
            {clock.now} {clock.frozen ? '(frozen)' : clock.moved ? `(offset ${clock.offset_seconds} s)` : '(real time)'}
          </p>
        )}
        <ClockForm
          busy={busy}
          onSet={(now, frozen) =>
            act(async () => {
              await controls.setClock(kind, id, { now, frozen });
              return undefined;
            })
          }
          onAdvance={(days) =>
            act(async () => {
              await controls.advance(kind, id, { days });
              return undefined;
            })
          }
        />
        <button type="button" class="secondary" onClick={() => setAsk({ kind: 'clear-clock' })}>
          Back to real time
        </button>
      </section>

      <section class="card" aria-labelledby="faults-title">
        <h2 id="faults-title">Fault rules</h2>
        {faults.length === 0 ? (
          <p class="muted">No fault rule.</p>
        ) : (
          <table>
            <caption class="visually-hidden">Fault rules</caption>
            <thead>
              <tr>
                <th scope="col">Calls</th>
                <th scope="col">Effect</th>
                <th scope="col">Limits</th>
                <th scope="col">Applied</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {faults.map((f) => (
                <tr key={f.id}>
                  <td data-label="Calls">
                    {[f.match.method, f.match.operation_id, f.match.path].filter(Boolean).join(' ') || 'every call'}
                    {f.match.before_authentication ? ' (before authentication)' : ''}
                  </td>
                  <td data-label="Effect">{describeEffect(f.effect)}</td>
                  <td data-label="Limits">
                    {f.probability < 1 ? `p=${f.probability} ` : ''}
                    {f.remaining_count !== null ? `${f.remaining_count} left` : ''}
                    {f.until ? ` until ${f.until}` : ''}
                    {f.seed !== null ? ` seed ${f.seed}` : ''}
                  </td>
                  <td data-label="Applied">{f.applied_count}</td>
                  <td>
                    <button
                      type="button"
                      class="secondary"
                      onClick={() =>
                        act(async () => {
                          await controls.deleteFault(kind, id, f.id);
                          return 'Fault rule deleted.';
                        })
                      }
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <FaultForm
          busy={busy}
          operations={operations}
          onAdd={(rule) =>
            act(async () => {
              await controls.addFault(kind, id, rule);
              return 'Fault rule added: it applies from now on.';
            })
          }
        />
      </section>

      <section class="card" aria-labelledby="snapshots-title">
        <h2 id="snapshots-title">Snapshots</h2>
        {snapshots.length === 0 ? (
          <p class="muted">No snapshot.</p>
        ) : (
          <ul class="snapshots">
            {snapshots.map((s) => (
              <li key={s.name}>
                <strong>{s.name}</strong>{' '}
                <span class="muted">
                  {s.created_at}, {s.rows_count} rows, {s.files_count} files
                </span>{' '}
                <button type="button" onClick={() => setAsk({ kind: 'restore', name: s.name })}>
                  Restore {s.name}
                </button>{' '}
                <button
                  type="button"
                  class="secondary"
                  onClick={() => setAsk({ kind: 'delete-snapshot', name: s.name })}
                >
                  Delete {s.name}
                </button>
              </li>
            ))}
          </ul>
        )}
        <SnapshotForm
          busy={busy}
          onSave={(name) =>
            act(async () => {
              const s = await controls.saveSnapshot(kind, id, name);
              return `Saved ${s.name}: ${s.rows_count} rows.`;
            })
          }
        />
        <button type="button" class="danger" onClick={() => setAsk({ kind: 'reset' })}>
          Reset the tenant
        </button>
      </section>

      <Confirm
        open={ask !== undefined}
        title={
          ask?.kind === 'restore'
            ? `Restore ${ask.name}?`
            : ask?.kind === 'delete-snapshot'
              ? `Delete ${ask.name}?`
              : ask?.kind === 'reset'
                ? 'Reset the tenant?'
                : 'Back to real time?'
        }
        confirmLabel={ask?.kind === 'restore' ? 'Restore' : ask?.kind === 'clear-clock' ? 'Reset the clock' : 'Delete'}
        onConfirm={confirm}
        onCancel={() => setAsk(undefined)}
      >
        <p>
          {ask?.kind === 'restore'
            ? "Every row and file of the tenant is replaced by the snapshot's; its credentials stay as they are."
            : ask?.kind === 'reset'
              ? 'Every row of the tenant is deleted; its credentials and snapshots stay.'
              : ask?.kind === 'delete-snapshot'
                ? 'The snapshot is gone for good.'
                : "The tenant's time becomes the installation's again."}
        </p>
      </Confirm>
    </section>
  );
}

function describeEffect(effect: FaultRule['effect']): string {
  switch (effect.type) {
    case 'status':
      return `answers ${effect.status}`;
    case 'latency':
      if (effect.distribution === 'uniform') return `${effect.min_ms}–${effect.max_ms} ms late`;
      if (effect.distribution === 'log_normal') return `~${effect.median_ms} ms late (log-normal, σ ${effect.sigma})`;
      return `${effect.latency_ms} ms late`;
    case 'slow_body':
      return `body at ${effect.bytes_per_second} B/s`;
    case 'chunked_body':
      return `body in ${effect.chunks} chunks over ${effect.total_ms} ms`;
    case 'malformed':
      return {
        empty: 'an empty 200',
        invalid_json: 'a body that is not JSON',
        truncated: 'half the body, then closes',
        close_after_headers: 'closes after the headers',
      }[effect.form];
    default:
      return 'drops the connection';
  }
}

/**
 * The browser's time zone and its offset from UTC at a `datetime-local` value (now when empty): the zone the clock
 * form's time is read in (`Europe/Paris, UTC+01:00`).
 */
function zoneOf(local: string): string {
  const given = new Date(local);
  const at = local && !Number.isNaN(given.getTime()) ? given : new Date();
  const minutes = -at.getTimezoneOffset();
  const abs = Math.abs(minutes);
  const offset = `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${Intl.DateTimeFormat().resolvedOptions().timeZone}, UTC${offset}`;
}

function ClockForm(props: {
  busy: boolean;
  onSet: (now: string, frozen: boolean) => Promise<void>;
  onAdvance: (days: number) => Promise<void>;
}) {
  const [when, setWhen] = useState('');
  const [frozen, setFrozen] = useState(true);
  const [days, setDays] = useState('1');
  return (
    <div class="forms">
      <form
        class="inline"
        aria-label="Set the clock"
        onSubmit={(e) => {
          e.preventDefault();
          // A datetime-local value is the browser's local time: sent as an instant with its offset.
          void props.onSet(new Date(when).toISOString(), frozen);
        }}
      >
        <label>
          Time
          <input
            type="datetime-local"
            value={when}
            required
            aria-describedby="clock-zone"
            onInput={(e) => setWhen((e.target as HTMLInputElement).value)}
          />
        </label>
        <label class="check">
          <input type="checkbox" checked={frozen} onChange={(e) => setFrozen((e.target as HTMLInputElement).checked)} />
          frozen
        </label>
        <button type="submit" disabled={props.busy}>
          Set the clock
        </button>
        <p class="muted hint" id="clock-zone" data-testid="clock-zone">
          In your browser's time zone: {zoneOf(when)}.
        </p>
      </form>
      <form
        class="inline"
        aria-label="Advance the clock"
        onSubmit={(e) => {
          e.preventDefault();
          void props.onAdvance(Number(days));
        }}
      >
        <label>
          Days
          <input
            type="number"
            min="-36500"
            max="36500"
            step="1"
            value={days}
            required
            onInput={(e) => setDays((e.target as HTMLInputElement).value)}
          />
        </label>
        <button type="submit" disabled={props.busy}>
          Advance
        </button>
      </form>
    </div>
  );
}

/** The effects the form offers, with the numbers each one asks for (label, parameter, default). */
const EFFECTS: Record<string, { label: string; numbers: [string, string, string][] }> = {
  ...Object.fromEntries(['429', '500', '502', '503', '504'].map((s) => [s, { label: `answer ${s}`, numbers: [] }])),
  reset: { label: 'drop the connection', numbers: [] },
  latency: { label: 'delay (fixed)', numbers: [['Delay (ms)', 'latency_ms', '500']] },
  uniform: {
    label: 'delay (uniform)',
    numbers: [
      ['Min (ms)', 'min_ms', '100'],
      ['Max (ms)', 'max_ms', '1000'],
    ],
  },
  log_normal: {
    label: 'delay (log-normal)',
    numbers: [
      ['Median (ms)', 'median_ms', '200'],
      ['Sigma', 'sigma', '0.5'],
    ],
  },
  chunked_body: {
    label: 'body in chunks',
    numbers: [
      ['Chunks', 'chunks', '4'],
      ['Over (ms)', 'total_ms', '2000'],
    ],
  },
  empty: { label: 'an empty 200', numbers: [] },
  invalid_json: { label: 'invalid JSON', numbers: [] },
  truncated: { label: 'a truncated body', numbers: [] },
  close_after_headers: { label: 'close after the headers', numbers: [] },
};

/** The rule's `effect` of the form's choice and numbers. */
function effectOf(choice: string, numbers: Record<string, string>): Record<string, unknown> {
  const given = Object.fromEntries(
    (EFFECTS[choice]?.numbers ?? []).map(([, key, d]) => [key, Number(numbers[key] ?? d)]),
  );
  if (/^[0-9]+$/.test(choice)) return { type: 'status', status: Number(choice) };
  if (choice === 'reset') return { type: 'reset' };
  if (choice === 'latency') return { type: 'latency', ...given };
  if (choice === 'uniform' || choice === 'log_normal') return { type: 'latency', distribution: choice, ...given };
  if (choice === 'chunked_body') return { type: 'chunked_body', ...given };
  return { type: 'malformed', form: choice };
}

function FaultForm(props: { busy: boolean; operations: string[]; onAdd: (rule: unknown) => Promise<void> }) {
  const [operation, setOperation] = useState('');
  const [status, setStatus] = useState('503');
  const [numbers, setNumbers] = useState<Record<string, string>>({});
  const [count, setCount] = useState('');
  const [seed, setSeed] = useState('');
  const [early, setEarly] = useState(false);
  const match = {
    ...(operation ? { operation_id: operation } : {}),
    ...(early ? { before_authentication: true } : {}),
  };
  return (
    <form
      class="inline"
      aria-label="New fault rule"
      onSubmit={(e) => {
        e.preventDefault();
        void props.onAdd({
          ...(Object.keys(match).length > 0 ? { match } : {}),
          effect: effectOf(status, numbers),
          ...(count ? { remaining_count: Number(count) } : {}),
          ...(seed ? { seed: Number(seed) } : {}),
        });
      }}
    >
      <label>
        Operation
        {/* The operationIds the server accepts for this tenant (GET …/operations): nothing else can be sent. */}
        <select value={operation} onChange={(e) => setOperation((e.target as HTMLSelectElement).value)}>
          <option value="">every call</option>
          {props.operations.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      </label>
      <label class="check">
        <input type="checkbox" checked={early} onChange={(e) => setEarly((e.target as HTMLInputElement).checked)} />
        before authentication
      </label>
      <label>
        Effect
        <select value={status} onChange={(e) => setStatus((e.target as HTMLSelectElement).value)}>
          {Object.entries(EFFECTS).map(([value, effect]) => (
            <option key={value} value={value}>
              {effect.label}
            </option>
          ))}
        </select>
      </label>
      {(EFFECTS[status]?.numbers ?? []).map(([label, key, initial]) => (
        <label key={key}>
          {label}
          <input
            type="number"
            min="0"
            step={key === 'sigma' ? '0.1' : '1'}
            required
            value={numbers[key] ?? initial}
            onInput={(e) => setNumbers({ ...numbers, [key]: (e.target as HTMLInputElement).value })}
          />
        </label>
      ))}
      <label>
        Times (empty: until deleted)
        <input type="number" min="1" value={count} onInput={(e) => setCount((e.target as HTMLInputElement).value)} />
      </label>
      <label>
        Seed (empty: random)
        <input
          type="number"
          min="0"
          max="4294967295"
          step="1"
          value={seed}
          onInput={(e) => setSeed((e.target as HTMLInputElement).value)}
        />
      </label>
      <button type="submit" disabled={props.busy}>
        Add the rule
      </button>
    </form>
  );
}

function SnapshotForm(props: { busy: boolean; onSave: (name: string) => Promise<void> }) {
  const [name, setName] = useState('');
  return (
    <form
      class="inline"
      aria-label="Save a snapshot"
      onSubmit={(e) => {
        e.preventDefault();
        void props.onSave(name.trim()).then(() => setName(''));
      }}
    >
      <label>
        Snapshot name
        <input
          value={name}
          required
          pattern="[A-Za-z0-9._\-]{1,64}"
          placeholder="baseline"
          onInput={(e) => setName((e.target as HTMLInputElement).value)}
        />
      </label>
      <button type="submit" disabled={props.busy}>
        Save a snapshot
      </button>
    </form>
  );
}
