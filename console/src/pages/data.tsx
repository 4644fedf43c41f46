import { useEffect, useState } from 'preact/hooks';
import { Alert } from '../components';
import { type Context, DataList, dataPath, JsonView, type Row, Section } from '../data-browser';
import { navigate } from '../navigate';
import { resourceOf } from '../resources';
import { type Answer, getJson, type TenantKind } from '../tenant-api';

interface Props {
  params: Record<string, string>;
  query: URLSearchParams;
}

function tenantOf(params: Record<string, string>): { kind: TenantKind; id: string } {
  return { kind: params.kind === 'academy' ? 'academy' : 'hr', id: params.id ?? '' };
}

const tenantLink = (kind: TenantKind, id: string) => `/console/tenants/${kind}/${encodeURIComponent(id)}`;

/**
 * A resource's list (`/console/tenants/{kind}/{id}/data/{resource}`): the API list with its search and filters,
 * which the page's address keeps (`?q=…&cursor=…`), so that a page of results can be reloaded, linked and gone back to.
 */
export function DataListPage(props: Props) {
  const { kind, id } = tenantOf(props.params);
  const resource = resourceOf(kind, props.params.resource ?? '');
  if (!resource) return <Alert>No such data here: {props.params.resource}.</Alert>;
  const query = Object.fromEntries(props.query);
  return (
    <section aria-labelledby="data-title">
      <p>
        <a href={tenantLink(kind, id)}>← The tenant</a>
      </p>
      <h1 id="data-title">{resource.title}</h1>
      <p class="muted">Read-only, through the tenant's own API with a view pass: nothing here is logged or faulted.</p>
      <DataList
        spec={resource.list}
        context={{ kind, id }}
        query={query}
        onQuery={(asked) => {
          const search = new URLSearchParams(asked).toString();
          navigate(`${dataPath(kind, id, resource.name)}${search ? `?${search}` : ''}`);
        }}
        label={resource.title.toLowerCase()}
      />
    </section>
  );
}

/** One object (`…/data/{resource}/{item}`): its fields, its related lists, and its JSON as the API answered it. */
export function DataDetailPage(props: Props) {
  const { kind, id } = tenantOf(props.params);
  const item = props.params.item ?? '';
  const resource = resourceOf(kind, props.params.resource ?? '');
  const [answer, setAnswer] = useState<Answer | undefined>();
  const [error, setError] = useState<string | undefined>();
  const path = resource?.detail?.path(item);
  useEffect(() => {
    if (!path) return;
    let current = true;
    setAnswer(undefined);
    setError(undefined);
    getJson(kind, id, path).then(
      (got) => current && setAnswer(got),
      (err: unknown) => current && setError(err instanceof Error ? err.message : String(err)),
    );
    return () => {
      current = false;
    };
  }, [kind, id, path]);
  if (!resource?.detail) return <Alert>No such data here: {props.params.resource}.</Alert>;
  const detail = resource.detail;
  const body = (answer?.body ?? {}) as Row;
  const context: Context = { kind, id, parent: item, reload: () => undefined };
  const Extra = detail.extra;
  return (
    <section aria-labelledby="data-title">
      <p>
        <a href={dataPath(kind, id, resource.name)}>← {resource.title}</a>
      </p>
      <h1 id="data-title">{answer ? detail.title(body) : resource.title}</h1>
      {error && <Alert>{error}</Alert>}
      {answer && (
        <>
          <dl class="fields">
            {detail.fields.map(([label, value]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>{value(body, context)}</dd>
              </div>
            ))}
          </dl>
          <JsonView answer={answer} />
          {Extra && <Extra context={context} item={item} body={body} />}
          {detail.sections?.map((s) => (
            <Section key={s.title} title={s.title} spec={s.list(item, body)} context={{ kind, id, parent: item }} />
          ))}
        </>
      )}
    </section>
  );
}
