/**
 * The data browser's building blocks: a list of one of a tenant's API lists (its own search, filters and paging,
 * taken from the API's query parameters) and the JSON of an answer exactly as the API sent it. What each resource
 * shows is configuration (resources.tsx); these components know no resource.
 */

import type { ComponentChildren, ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Alert } from './components';
import { type Answer, apiPath, getJson, type TenantKind } from './tenant-api';

/** An object of an API answer, as parsed: the columns pick what they show. */
export type Row = Record<string, unknown>;

/** What a column or a section is shown in: the tenant, the object a section belongs to, and a way to reload. */
export interface Context {
  kind: TenantKind;
  id: string;
  /** The id of the object whose detail page shows this list, when it is a section. */
  parent?: string;
  reload: () => void;
}

export interface Column {
  label: string;
  value: (row: Row, context: Context) => ComponentChildren;
}

/** A filter: one query parameter of the API list, typed in, picked from its values, or a date. */
export interface Filter {
  param: string;
  label: string;
  options?: readonly string[];
  type?: 'text' | 'date';
  placeholder?: string;
}

/** One list of a tenant's API, as the data browser shows it. */
export interface ListSpec {
  /** The API path, without its prefix (`/employees`, `/events/ilt`). */
  path: string;
  /** `cursor`: `per_page` and `cursor`, with `Next-Cursor` / `Previous-Cursor` (HR); `offset`: `start` and `limit` (Academy). */
  paging: 'cursor' | 'offset';
  pageSize?: number;
  /** The list's own search parameter (`q`, `search`), shown as a search box. */
  search?: Filter;
  filters?: readonly Filter[];
  /** Query parameters always sent (a section's `employee_id`). */
  fixed?: Record<string, string>;
  /** The rows of an answer: the answer itself when it is an array, else what this picks. */
  items?: (body: unknown) => unknown;
  /** The total the answer gives, when it gives one. */
  total?: (body: unknown) => unknown;
  columns: readonly Column[];
  /** The console path (under the tenant's `data/`) of a row's page, when it has one: the first column links to it. */
  link?: (row: Row) => string | undefined;
  /** Read by screen readers: what the table lists. */
  caption: string;
  empty?: string;
}

/** A resource's own page: one object of the API, its fields, its related lists and its JSON. */
export interface DetailSpec {
  path: (item: string) => string;
  title: (body: Row) => string;
  fields: readonly (readonly [string, (body: Row, context: Context) => ComponentChildren])[];
  /** Something of the object's own (a document's file), shown under its fields. */
  extra?: ComponentType<{ context: Context; item: string; body: Row }>;
  sections?: readonly { title: string; list: (item: string, body: Row) => ListSpec }[];
}

/** A resource of the data browser: a list page and, when it has one, a page per object. */
export interface Resource {
  /** Its path segment, under `/console/tenants/{kind}/{id}/data/`. */
  name: string;
  kind: TenantKind;
  title: string;
  list: ListSpec;
  detail?: DetailSpec;
}

/** The console path of a tenant's data page. */
export const dataPath = (kind: TenantKind, id: string, rest: string) =>
  `/console/tenants/${kind}/${encodeURIComponent(id)}/data/${rest}`;

/** A value for a table cell: text for scalars, nothing for null. */
export function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(text).join(', ');
  return JSON.stringify(value);
}

/** The field of an object at a path of keys (`['employee', 'firstname']`), when there is one. */
export function pick(row: unknown, ...keys: (string | number)[]): unknown {
  let at: unknown = row;
  for (const key of keys) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string | number, unknown>)[key];
  }
  return at;
}

function rowsOf(spec: ListSpec, body: unknown): Row[] {
  const items = spec.items ? spec.items(body) : body;
  return Array.isArray(items) ? items.filter((r): r is Row => r !== null && typeof r === 'object') : [];
}

/** The API query of a list: its fixed parameters, the filters and position asked, and its page size. */
function apiQuery(spec: ListSpec, query: Record<string, string>): string {
  const params = new URLSearchParams(spec.fixed);
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  params.set(spec.paging === 'cursor' ? 'per_page' : 'limit', String(spec.pageSize ?? 20));
  return `${spec.path}?${params}`;
}

/** The JSON of an answer, pretty-printed, with the path it came from (the pass is never in it). */
export function JsonView(props: { answer: Answer; label?: string }) {
  let pretty = props.answer.text;
  try {
    pretty = JSON.stringify(JSON.parse(props.answer.text), null, 2);
  } catch {
    // Not JSON: shown as sent.
  }
  return (
    <details class="json">
      <summary>{props.label ?? 'JSON'}</summary>
      <p class="muted">
        <code data-testid="json-path">GET {props.answer.path}</code> → {props.answer.status}
      </p>
      <pre data-testid="json">{pretty}</pre>
    </details>
  );
}

/**
 * A list of the tenant's API: a search box and filters (the API's own query parameters), the rows, Previous and Next
 * (by the answer's cursors, or by offset for the Academy API) and the page's JSON. `query` holds the filters and
 * position; `onQuery` is asked to change them (the page's address, or a section's own state).
 */
export function DataList(props: {
  spec: ListSpec;
  context: Omit<Context, 'reload'>;
  query: Record<string, string>;
  onQuery: (query: Record<string, string>) => void;
  label: string;
}) {
  const { spec, query } = props;
  const [answer, setAnswer] = useState<Answer | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [loads, setLoads] = useState(0);
  const [draft, setDraft] = useState<Record<string, string>>(query);
  const path = apiQuery(spec, query);
  useEffect(() => setDraft(query), [JSON.stringify(query)]);
  useEffect(() => {
    let current = true;
    setError(undefined);
    getJson(props.context.kind, props.context.id, path).then(
      (got) => current && setAnswer(got),
      (err: unknown) => {
        if (!current) return;
        setAnswer(undefined);
        setError(err instanceof Error ? err.message : String(err));
      },
    );
    return () => {
      current = false;
    };
  }, [path, loads]);
  // The rows shown are the previous page's until this one's answer comes.
  const loading = !error && answer?.path !== apiPath(props.context.kind, props.context.id, path);

  const context: Context = { ...props.context, reload: () => setLoads((n) => n + 1) };
  const rows = answer ? rowsOf(spec, answer.body) : [];
  const total = answer && spec.total ? spec.total(answer.body) : undefined;
  const start = Number(query.start ?? 0) || 0;
  const size = spec.pageSize ?? 20;
  const next =
    spec.paging === 'cursor'
      ? answer?.nextCursor && { ...query, cursor: answer.nextCursor }
      : (typeof total === 'number' ? start + rows.length < total : rows.length >= size) && {
          ...query,
          start: String(start + size),
        };
  const previous =
    spec.paging === 'cursor'
      ? answer?.previousCursor && { ...query, cursor: answer.previousCursor }
      : start > 0 && { ...query, start: String(Math.max(0, start - size)) };
  const filters: Filter[] = [...(spec.search ? [spec.search] : []), ...(spec.filters ?? [])];
  const apply = (event: Event) => {
    event.preventDefault();
    const asked: Record<string, string> = {};
    for (const f of filters) {
      const value = draft[f.param]?.trim();
      if (value) asked[f.param] = value;
    }
    props.onQuery(asked);
  };

  return (
    <div class="data-list">
      {filters.length > 0 && (
        <form class="inline" aria-label={`Search ${props.label}`} onSubmit={apply}>
          {filters.map((f) => (
            <FilterField
              key={f.param}
              filter={f}
              id={`${props.label.replace(/\W+/g, '-')}-${f.param}`}
              search={spec.search?.param === f.param}
              value={draft[f.param] ?? ''}
              onChange={(value) => setDraft({ ...draft, [f.param]: value })}
            />
          ))}
          <button type="submit">Search</button>
        </form>
      )}
      {error && <Alert>{error}</Alert>}
      {/* Focusable, so that a table wider than the screen scrolls from the keyboard too (even with no link in it). */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the focus (WCAG 2.1.1). */}
      <div class="scroll" tabIndex={0}>
        <table>
          <caption class="visually-hidden">{spec.caption}</caption>
          <thead>
            <tr>
              {spec.columns.map((c) => (
                <th key={c.label} scope="col">
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {answer && rows.length === 0 && (
              <tr>
                <td colSpan={spec.columns.length} class="muted">
                  {spec.empty ?? 'Nothing here.'}
                </td>
              </tr>
            )}
            {rows.map((row, i) => {
              const to = spec.link?.(row);
              return (
                <tr key={`${i}:${text(row.id ?? row.delivery_id ?? row.userId)}`}>
                  {spec.columns.map((c, j) => {
                    const shown = c.value(row, context);
                    return (
                      <td key={c.label} data-label={c.label}>
                        {j === 0 && to ? <a href={dataPath(context.kind, context.id, to)}>{shown}</a> : shown}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <nav class="pager" aria-label={`Pages of ${props.label}`}>
        <button
          type="button"
          class="secondary"
          disabled={!previous || loading}
          onClick={() => previous && props.onQuery(previous)}
        >
          Previous
        </button>
        <span class="muted" role="status">
          {error
            ? 'Not loaded.'
            : loading || !answer
              ? 'Loading…'
              : `${rows.length} shown${typeof total === 'number' ? ` of ${total}` : ''}${spec.paging === 'offset' && start ? `, from ${start + 1}` : ''}`}
        </span>
        <button type="button" class="secondary" disabled={!next || loading} onClick={() => next && props.onQuery(next)}>
          Next
        </button>
      </nav>
      {answer && <JsonView answer={answer} label={`JSON of this page of ${props.label}`} />}
    </div>
  );
}

/** A section of a detail page: a list whose filters and position are its own. */
export function Section(props: { title: string; spec: ListSpec; context: Omit<Context, 'reload'> }) {
  const [query, setQuery] = useState<Record<string, string>>({});
  const headingId = `section-${props.title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section class="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{props.title}</h2>
      <DataList
        spec={props.spec}
        context={props.context}
        query={query}
        onQuery={setQuery}
        label={props.title.toLowerCase()}
      />
    </section>
  );
}

/** A filter's label and control: a list of its values, a date, the search box, or a text. */
function FilterField(props: {
  filter: Filter;
  id: string;
  search: boolean;
  value: string;
  onChange: (value: string) => void;
}) {
  const { filter, id, value } = props;
  const onInput = (e: Event) => props.onChange((e.target as HTMLInputElement | HTMLSelectElement).value);
  return (
    <label htmlFor={id}>
      {filter.label}
      {filter.options ? (
        <select id={id} value={value} onChange={onInput}>
          <option value="">any</option>
          {filter.options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      ) : filter.type === 'date' ? (
        <input id={id} type="date" value={value} onInput={onInput} />
      ) : props.search ? (
        <input id={id} type="search" value={value} placeholder={filter.placeholder} onInput={onInput} />
      ) : (
        <input id={id} value={value} placeholder={filter.placeholder} onInput={onInput} />
      )}
    </label>
  );
}
