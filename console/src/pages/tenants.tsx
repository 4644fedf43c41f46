import { useEffect, useState } from 'preact/hooks';
import { type Application, type Tenant, tenants } from '../api';
import { Alert, Confirm, SecretOnce, useAction } from '../components';

type Pending =
  | { kind: 'revoke'; clientId: string; application: Application }
  | { kind: 'rotate'; tenant: Tenant }
  | undefined;

/** Every tenant of both APIs, and making them and their credentials (docs/admin.md, "Tenants and credentials"). */
export function TenantsPage() {
  const [list, setList] = useState<Tenant[] | undefined>();
  const [secret, setSecret] = useState<{ label: string; value: string } | undefined>();
  const [pending, setPending] = useState<Pending>();
  const { error, busy, run } = useAction();
  const reload = () => run(async () => setList(await tenants.list()));
  useEffect(() => {
    void reload();
  }, []);

  const confirmPending = () => {
    const action = pending;
    setPending(undefined);
    if (!action) return;
    void run(async () => {
      if (action.kind === 'revoke') await tenants.revokeApplication(action.clientId, action.application.application_id);
      else {
        const rotated = await tenants.rotateKey(action.tenant.id);
        setSecret({ label: `New API key of ${action.tenant.name}`, value: rotated.apikey });
      }
      setList(await tenants.list());
    });
  };

  const hr = list?.filter((t) => t.kind === 'hr') ?? [];
  const academies = list?.filter((t) => t.kind === 'academy') ?? [];
  return (
    <section aria-labelledby="tenants-title">
      <h1 id="tenants-title">Tenants</h1>
      {error && <Alert>{error}</Alert>}
      {secret && <SecretOnce label={secret.label} value={secret.value} onDismiss={() => setSecret(undefined)} />}
      <div class="cards">
        <NameForm
          title="New HR client"
          busy={busy}
          onSubmit={(name) =>
            run(async () => {
              await tenants.createHr(name);
              setList(await tenants.list());
            })
          }
        />
        <NameForm
          title="New academy"
          busy={busy}
          onSubmit={(name) =>
            run(async () => {
              const made = await tenants.createAcademy(name);
              setSecret({ label: `API key of ${made.tenant.name} (acadId ${made.tenant.id})`, value: made.apikey });
              setList(await tenants.list());
            })
          }
        />
      </div>

      <h2>HR clients</h2>
      {list && hr.length === 0 && <p class="muted">No HR client yet.</p>}
      {hr.map((t) => (
        <article class="tenant" key={t.id} aria-label={`HR client ${t.name}`}>
          <header>
            <h3>
              <a href={`/console/tenants/hr/${encodeURIComponent(t.id)}`}>{t.name}</a>
            </h3>
            <code class="muted">client_id {t.id}</code>
          </header>
          <table>
            <caption class="visually-hidden">Applications of {t.name}</caption>
            <thead>
              <tr>
                <th scope="col">Application</th>
                <th scope="col">Id</th>
                <th scope="col">Access</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {(t.applications ?? []).length === 0 && (
                <tr>
                  <td colSpan={5} class="muted">
                    No application yet.
                  </td>
                </tr>
              )}
              {(t.applications ?? []).map((a) => (
                <tr key={a.application_id}>
                  <td data-label="Application">{a.name}</td>
                  <td data-label="Id">
                    <code>{a.application_id}</code>
                  </td>
                  <td data-label="Access">{a.read_only ? 'read-only' : 'read and write'}</td>
                  <td data-label="State">{a.revoked_at ? `revoked ${a.revoked_at}` : 'active'}</td>
                  <td>
                    {!a.revoked_at && (
                      <button
                        type="button"
                        class="danger"
                        onClick={() => setPending({ kind: 'revoke', clientId: t.id, application: a })}
                      >
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <ApplicationForm
            clientName={t.name}
            busy={busy}
            onSubmit={(name, readOnly) =>
              run(async () => {
                const made = await tenants.createApplication(t.id, name, readOnly);
                setSecret({ label: `Secret of application ${made.name}`, value: made.application_secret });
                setList(await tenants.list());
              })
            }
          />
        </article>
      ))}

      <h2>Academies</h2>
      {list && academies.length === 0 && <p class="muted">No academy yet.</p>}
      {academies.map((t) => (
        <article class="tenant" key={t.id} aria-label={`Academy ${t.name}`}>
          <header>
            <h3>
              <a href={`/console/tenants/academy/${encodeURIComponent(t.id)}`}>{t.name}</a>
            </h3>
            <code class="muted">acadId {t.id}</code>
          </header>
          <ul class="keys">
            {(t.keys ?? []).map((k) => (
              <li key={k.key_id}>
                key {k.key_id}: {k.state}
                {k.expires_at ? ` until ${k.expires_at}` : ''}
              </li>
            ))}
          </ul>
          <button type="button" onClick={() => setPending({ kind: 'rotate', tenant: t })}>
            Rotate key
          </button>
        </article>
      ))}

      <Confirm
        open={pending !== undefined}
        title={pending?.kind === 'revoke' ? 'Revoke this application?' : 'Rotate the API key?'}
        confirmLabel={pending?.kind === 'revoke' ? 'Revoke' : 'Rotate'}
        onConfirm={confirmPending}
        onCancel={() => setPending(undefined)}
      >
        {pending?.kind === 'revoke' ? (
          <p>
            {pending.application.name} gets no new token, and the tokens it has stop working within a second. This
            cannot be undone.
          </p>
        ) : (
          <p>The academy gets a new key; its other keys keep working for the grace period, then stop.</p>
        )}
      </Confirm>
    </section>
  );
}

function NameForm(props: { title: string; busy: boolean; onSubmit: (name: string) => Promise<void> }) {
  const [name, setName] = useState('');
  const id = props.title.toLowerCase().replaceAll(' ', '-');
  return (
    <form
      class="card"
      aria-labelledby={`${id}-title`}
      onSubmit={(e) => {
        e.preventDefault();
        void props.onSubmit(name.trim()).then(() => setName(''));
      }}
    >
      <h2 id={`${id}-title`}>{props.title}</h2>
      <label for={`${id}-name`}>Name</label>
      <input
        id={`${id}-name`}
        value={name}
        maxLength={200}
        required
        onInput={(e) => setName((e.target as HTMLInputElement).value)}
      />
      <button type="submit" disabled={props.busy}>
        Create
      </button>
    </form>
  );
}

function ApplicationForm(props: {
  clientName: string;
  busy: boolean;
  onSubmit: (name: string, readOnly: boolean) => Promise<void>;
}) {
  const [name, setName] = useState('');
  const [readOnly, setReadOnly] = useState(false);
  return (
    <form
      class="inline"
      aria-label={`New application of ${props.clientName}`}
      onSubmit={(e) => {
        e.preventDefault();
        void props.onSubmit(name.trim(), readOnly).then(() => setName(''));
      }}
    >
      <label>
        New application
        <input value={name} maxLength={200} required onInput={(e) => setName((e.target as HTMLInputElement).value)} />
      </label>
      <label class="check">
        <input
          type="checkbox"
          checked={readOnly}
          onChange={(e) => setReadOnly((e.target as HTMLInputElement).checked)}
        />
        read-only
      </label>
      <button type="submit" disabled={props.busy}>
        Create application
      </button>
    </form>
  );
}
