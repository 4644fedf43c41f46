import type { ApiDocumentation, OperationContext } from '../platform/http/openapi.js';

export const ADMIN_PREFIX = '/admin/v1';

/**
 * The SDK method of each admin operation (`AdminClient`), by `METHOD /path` after `/admin/v1`: the operationId is
 * `admin_<method>` (`admin_clock_advance`).
 */
const ADMIN_OPERATIONS: Readonly<Record<string, string>> = {
  'GET /tenants': 'tenants.list',
  'GET /tenants/{kind}/{id}': 'tenants.retrieve',
  'POST /tenants/hr': 'tenants.createHr',
  'POST /tenants/academy': 'tenants.createAcademy',
  'POST /tenants/hr/{id}/applications': 'tenants.createApplication',
  'DELETE /tenants/hr/{id}/applications/{application_id}': 'tenants.revokeApplication',
  'POST /tenants/academy/{id}/keys': 'tenants.rotateAcademyKey',
  'POST /tenants/{kind}/{id}/view_pass': 'tenants.viewPass',
  'POST /tenants/{kind}/{id}/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver': 'webhooks.redeliver',
  'POST /tenants/hr/{id}/events/trigger': 'events.trigger',
  'GET /tenants/{kind}/{id}/settings': 'settings.retrieve',
  'PATCH /tenants/{kind}/{id}/settings': 'settings.update',
  'POST /tenants/{kind}/{id}/config_updates': 'settings.stageUpdate',
  'GET /tenants/{kind}/{id}/config_updates/{update_id}': 'settings.retrieveUpdate',
  'GET /tenants/{kind}/{id}/clock': 'clock.retrieve',
  'PUT /tenants/{kind}/{id}/clock': 'clock.set',
  'POST /tenants/{kind}/{id}/clock/advance': 'clock.advance',
  'DELETE /tenants/{kind}/{id}/clock': 'clock.reset',
  'GET /tenants/{kind}/{id}/faults': 'faults.list',
  'POST /tenants/{kind}/{id}/faults': 'faults.create',
  'DELETE /tenants/{kind}/{id}/faults': 'faults.clear',
  'GET /tenants/{kind}/{id}/faults/{fault_id}': 'faults.retrieve',
  'DELETE /tenants/{kind}/{id}/faults/{fault_id}': 'faults.del',
  'GET /tenants/{kind}/{id}/operations': 'faults.operations',
  'GET /tenants/{kind}/{id}/requests': 'requests.list',
  'GET /tenants/{kind}/{id}/requests/tail': 'requests.tail',
  'GET /tenants/{kind}/{id}/requests/{seq}': 'requests.retrieve',
  'POST /tenants/{kind}/{id}/requests/verify': 'requests.verify',
  'DELETE /tenants/{kind}/{id}/requests': 'requests.clear',
  'GET /tenants/{kind}/{id}/report': 'reports.retrieve',
  'POST /tenants/{kind}/{id}/reset': 'tenants.reset',
  'GET /tenants/{kind}/{id}/snapshots': 'snapshots.list',
  'POST /tenants/{kind}/{id}/snapshots': 'snapshots.create',
  'GET /tenants/{kind}/{id}/snapshots/{name}': 'snapshots.retrieve',
  'DELETE /tenants/{kind}/{id}/snapshots/{name}': 'snapshots.del',
  'POST /tenants/{kind}/{id}/snapshots/{name}/restore': 'snapshots.restore',
  'GET /tenants/{kind}/{id}/snapshots/{name}/export': 'snapshots.export',
  'POST /tenants/{kind}/{id}/snapshots/import': 'snapshots.import',
  'POST /tenants/{kind}/{id}/clone': 'tenants.clone',
  'POST /session': 'sessions.create',
  'GET /session': 'sessions.retrieve',
  'DELETE /session': 'sessions.del',
  'GET /proxy/departures': 'proxy.departures',
};

const RESPONSES: Readonly<Record<string, Readonly<Record<number, string>>>> = {
  'POST /session': {
    201: 'Signed in: the session, with its CSRF token; `Set-Cookie` carries the session cookie.',
    401: 'The operator token is unknown or revoked (`invalid_token`): no cookie is set.',
    415: 'The body is not JSON (`unsupported_media_type`): a form cannot sign anyone in; no cookie is set.',
  },
  'GET /session': {
    200: 'The session of the cookie, with its CSRF token.',
    404: 'The call came with an operator token, not a session cookie (`not_found`).',
  },
  'DELETE /session': {
    204: 'Signed out: the session has ended and `Set-Cookie` clears the cookie.',
    403: 'The call came with the session cookie but without its `X-CSRF-Token` (`csrf_refused`).',
  },
  'GET /proxy/departures': {
    200: "The validation proxy's report, per operation, those with departures first; empty when it has no journal yet.",
    403: 'The operator token is limited to some tenants (`outside_scope`): the journal is installation-wide.',
    424: 'The file at the journal path is not a journal `atrium proxy` wrote (`journal_unreadable`); it is left as it is.',
  },
  'GET /tenants': { 200: 'Every tenant: HR clients with their applications, then academies with their key ids.' },
  'GET /tenants/{kind}/{id}': { 200: 'The tenant, with its clock.' },
  'POST /tenants/hr': { 201: 'The HR client, created (`tenant`): no application yet.' },
  'POST /tenants/academy': { 201: 'The academy, created, with its first API key (shown only now).' },
  'POST /tenants/hr/{id}/applications': {
    201: 'The application, created, with its secret (shown only now): it can get tokens at once.',
  },
  'DELETE /tenants/hr/{id}/applications/{application_id}': {
    204: 'The application is revoked: its tokens are refused by every process within a second.',
  },
  'POST /tenants/academy/{id}/keys': {
    201: "The academy's new API key (shown only now); its other keys work until `previous_keys_expire_at`.",
  },
  'POST /tenants/{kind}/{id}/view_pass': {
    201: "A view pass of the tenant's API: it reads for ten minutes; writes made with it get 403.",
  },
  'POST /tenants/{kind}/{id}/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver': {
    202: 'Queued: the event goes again with the same body and `X-Event-Id`, signed anew; no body.',
    404: 'No HR client of this id (an academy has no webhooks), or no such webhook or delivery of it (`not_found`).',
  },
  'POST /tenants/hr/{id}/events/trigger': {
    201: 'Fired: the event as the audit trail shows it (`triggered: true`), and how many webhook deliveries it was queued for.',
    404: 'No HR client of this id, or no such resource of it (`not_found`).',
    422: 'A body that breaks the schema (`validation_error`), a type the catalogue does not have, or no resource of that type to build the event from.',
  },
  'GET /tenants/{kind}/{id}/settings': {
    200: "The HR client's settings, every section.",
    404: 'No HR client of this id (an academy has no HR settings) (`not_found`).',
  },
  'PATCH /tenants/{kind}/{id}/settings': {
    200: "The HR client's settings, changed.",
    404: 'No HR client of this id (`not_found`).',
  },
  'POST /tenants/{kind}/{id}/config_updates': {
    201: 'The configuration update, staged: the client applies it with `POST /platform_updates`.',
    404: 'No HR client of this id (`not_found`).',
  },
  'GET /tenants/{kind}/{id}/config_updates/{update_id}': {
    200: 'The configuration update.',
    404: 'No HR client of this id, or no such configuration update (`not_found`).',
  },
  'GET /tenants/{kind}/{id}/clock': { 200: "The tenant's clock." },
  'PUT /tenants/{kind}/{id}/clock': {
    200: "The tenant's clock, as set.",
    400: 'Both `now` and `offset_seconds`, a move of more than 100 years, or a body that is not a JSON object (`invalid_request`).',
  },
  'POST /tenants/{kind}/{id}/clock/advance': {
    200: "The tenant's clock, advanced.",
    400: 'A move of more than 100 years in all, or a body that is not a JSON object (`invalid_request`).',
  },
  'DELETE /tenants/{kind}/{id}/clock': { 200: "The tenant's clock: the installation's time again." },
  'GET /tenants/{kind}/{id}/faults': { 200: "The tenant's fault rules, spent ones too, oldest first." },
  'POST /tenants/{kind}/{id}/faults': {
    201: 'The fault rule, created: it applies from now on, in every process within a second.',
    409: 'The tenant has 100 fault rules already (`too_many_faults`).',
  },
  'DELETE /tenants/{kind}/{id}/faults': { 204: 'Every fault rule of the tenant is deleted; no body.' },
  'GET /tenants/{kind}/{id}/faults/{fault_id}': { 200: 'The fault rule.' },
  'DELETE /tenants/{kind}/{id}/faults/{fault_id}': { 204: 'The fault rule is deleted; no body.' },
  'GET /tenants/{kind}/{id}/operations': {
    200: "The operationIds of the tenant's own API, sorted: the values a fault rule's `match.operation_id` accepts.",
  },
  'GET /tenants/{kind}/{id}/requests': {
    200: "A page of the tenant's logged calls, newest first; `next_cursor` leads to older ones.",
    400: "The cursor is not one of this log's (`invalid_request`).",
  },
  'GET /tenants/{kind}/{id}/requests/tail': { 200: 'The stream of calls, until the client leaves.' },
  'GET /tenants/{kind}/{id}/requests/{seq}': { 200: 'The logged call.' },
  'POST /tenants/{kind}/{id}/requests/verify': {
    200: 'What matched, whether the count is right (`ok`), and, when too few matched, the closest calls.',
    400: 'The matcher breaks its schema (`errors` names each field), a `path` with `*` inside a segment, or `count.max` below `count.min` (`invalid_request`).',
  },
  'DELETE /tenants/{kind}/{id}/requests': { 200: "The tenant's log emptied: how many calls were deleted." },
  'GET /tenants/{kind}/{id}/report': {
    200: "The tenant's integration report over the range.",
    400: 'A malformed or unknown query parameter, or `since` not before `until` (`invalid_request`).',
  },
  'POST /tenants/{kind}/{id}/reset': { 200: 'The tenant emptied: what was deleted.' },
  'GET /tenants/{kind}/{id}/snapshots': { 200: "The tenant's snapshots, oldest first." },
  'POST /tenants/{kind}/{id}/snapshots': {
    201: 'The snapshot saved, with the rows of each table.',
    409: 'The tenant has a snapshot of this name already (`conflict`).',
    422: 'The name breaks its pattern (`^[A-Za-z0-9._-]{1,64}$`), or the body has an unknown member (`validation_error`).',
  },
  'GET /tenants/{kind}/{id}/snapshots/{name}': {
    200: 'The snapshot, with the rows of each table.',
    404: 'No tenant of this kind and id, or the tenant has no snapshot of this name, a name outside the pattern included (`not_found`).',
  },
  'DELETE /tenants/{kind}/{id}/snapshots/{name}': {
    404: 'No tenant of this kind and id, or the tenant has no snapshot of this name, a name outside the pattern included (`not_found`).',
  },
  'POST /tenants/{kind}/{id}/snapshots/{name}/restore': {
    200: 'The tenant restored: what was deleted and put back.',
    404: 'No tenant of this kind and id, or the tenant has no snapshot of this name, a name outside the pattern included (`not_found`).',
    409: 'The snapshot was saved with another database schema (`conflict`): save it again.',
    422: 'The body has an unknown member, or a `credentials` other than `keep` and `restore` (`validation_error`).',
  },
  'GET /tenants/{kind}/{id}/snapshots/{name}/export': {
    200: 'The portable file (gzip), streamed.',
    404: 'No tenant of this kind and id, or the tenant has no snapshot of this name, a name outside the pattern included (`not_found`).',
  },
  'POST /tenants/{kind}/{id}/snapshots/import': {
    200: 'The file verified and loaded: what was deleted and written.',
    400: 'The file is truncated, altered or not a portable snapshot file (`snapshot_corrupt`): nothing was written.',
    413: 'The file is larger than `ATRIUM_SNAPSHOT_IMPORT_MAX_BYTES` (`payload_too_large`): nothing was written.',
    422: 'The file is whole but of another format version, another kind of tenant or another schema (`snapshot_incompatible`, naming it), or a row the database refuses (`snapshot_invalid`): nothing was written.',
  },
  'POST /tenants/{kind}/{id}/clone': {
    201: 'The new tenant, a copy, with its fresh credentials (shown only now).',
  },
};

function describeError(status: number, op: OperationContext): string | undefined {
  switch (status) {
    case 400:
      return 'The body is not a JSON object (`invalid_request`).';
    case 401:
      return 'No valid operator token or session: missing, unknown, revoked or ended; tenant credentials are refused here (`invalid_token`).';
    case 403:
      return 'The call came with the session cookie but without its `X-CSRF-Token` (`csrf_refused`).';
    case 404:
      if (op.path.includes('{seq}')) return 'No tenant of this kind and id, or no such call in its log (`not_found`).';
      if (op.path.includes('{fault_id}'))
        return 'No tenant of this kind and id, or no such fault rule on it (`not_found`).';
      if (op.path.includes('{application_id}'))
        return 'No HR client of this id, or no application of this id on it (`not_found`).';
      if (op.path.startsWith('/tenants/hr/')) return 'No HR client of this id (`not_found`).';
      if (op.path.startsWith('/tenants/academy/')) return 'No academy of this id (`not_found`).';
      return op.path.includes('{kind}') ? 'No tenant of this kind and id (`not_found`).' : undefined;
    case 429:
      return 'Too many failed authentications from this address: retry after `Retry-After` seconds (`rate_limited`).';
    case 422:
      return 'A field of the body breaks the schema or a rule: `errors` names each field (`validation_error`).';
    default:
      return undefined;
  }
}

/** The admin API's part of the OpenAPI document (platform/http/openapi.ts). */
export const ADMIN_DOCUMENTATION: ApiDocumentation = {
  prefix: ADMIN_PREFIX,
  idPrefix: 'admin',
  operations: ADMIN_OPERATIONS,
  nouns: {
    tenants: ['tenant', 'tenants'],
    faults: ['fault rule', 'fault rules'],
    requests: ['logged call', 'logged calls'],
    snapshots: ['snapshot', 'snapshots'],
  },
  responses: RESPONSES,
  describeError,
  examples: {
    requests: {
      'PATCH /tenants/{kind}/{id}/settings': {
        case_management: { enabled: false },
        client: { timezone: 'Europe/Paris' },
      },
      'POST /tenants/{kind}/{id}/config_updates': { knowledge_base: { enabled: false } },
      'POST /tenants/{kind}/{id}/requests/verify': {
        method: 'GET',
        path: '/api/v2/client/organizations/**',
        status: '2xx',
        count: { min: 0 },
      },
      'POST /tenants/hr/{id}/events/trigger': { type: 'organization.updated' },
    },
  },
};
