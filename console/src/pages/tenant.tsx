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
                  </td>
                  <td data-label="Effect">{describeEffect(f.effect)}</td>
                  <td data-label="Limits">
                    {f.probability < 1 ? `p=${f.probability} ` : ''}
                    {f.remaining_count !== null ? `${f.remaining_count} left` : ''}
                    {f.until ? ` until ${f.until}` : ''}
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
  if (effect.type === 'status') return `answers ${effect.status}`;
  if (effect.type === 'latency') return `${effect.latency_ms} ms late`;
  if (effect.type === 'slow_body') return `body at ${effect.bytes_per_second} B/s`;
  return 'drops the connection';
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

function FaultForm(props: { busy: boolean; operations: string[]; onAdd: (rule: unknown) => Promise<void> }) {
  const [operation, setOperation] = useState('');
  const [status, setStatus] = useState('503');
  const [count, setCount] = useState('');
  return (
    <form
      class="inline"
      aria-label="New fault rule"
      onSubmit={(e) => {
        e.preventDefault();
        void props.onAdd({
          ...(operation ? { match: { operation_id: operation } } : {}),
          effect: status === 'reset' ? { type: 'reset' } : { type: 'status', status: Number(status) },
          ...(count ? { remaining_count: Number(count) } : {}),
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
      <label>
        Effect
        <select value={status} onChange={(e) => setStatus((e.target as HTMLSelectElement).value)}>
          {['429', '500', '502', '503', '504'].map((s) => (
            <option key={s} value={s}>
              answer {s}
            </option>
          ))}
          <option value="reset">drop the connection</option>
        </select>
      </label>
      <label>
        Times (empty: until deleted)
        <input type="number" min="1" value={count} onInput={(e) => setCount((e.target as HTMLInputElement).value)} />
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
