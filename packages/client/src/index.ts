/**
 * `@atrium/client` (also `atrium/client` from the server package): the TypeScript SDK of Atrium's two APIs.
 *
 * - {@link HrClient}: the HR service delivery client API (`/api/v2/client`), server-side only.
 * - {@link AcademyClient}: the Academy events API (`/v1`), for servers and browsers.
 * - {@link AdminClient}: the admin API (`/admin/v1`): tenants and sandbox controls, server-side only.
 * - {@link verifyWebhookSignature}: checks an HR webhook callback's `X-Event-Signature` and answers its event.
 *
 * It uses `fetch` (the built-in one or an injected one) and has no dependency: parameter and result types are the
 * server's schema types, copied into this package (`schemas/`) when the server's schemas change.
 *
 * @packageDocumentation
 */

export { AcademyClient } from './academy/client.js';
export { type AcademyClientOptions, type AcademyListParams, academyApiRoot } from './academy/core.js';
export type {
  Attendance,
  EventBodies,
  IltCreateBody,
  IltEditBody,
  Participant,
  VcCreateBody,
  VcEditBody,
} from './academy/events.js';
export {
  AdminApiError,
  AdminClient,
  type AdminClientOptions,
  type AdminCreatedAcademy,
  type AdminCreatedApplication,
  type AdminRotatedAcademyKey,
  type AdminSnapshot,
  type AdminTenant,
  type AdminTenantClock,
  type AdminTenantReplaced,
  type AdminTriggeredEvent,
  type AdminViewPass,
  type ClockAdvance,
  type ClockChange,
  type FaultEffect,
  type FaultLatency,
  type FaultMalformedForm,
  type FaultRule,
  type IntegrationReport,
  type LoggedCall,
  type NearMiss,
  type NearMissReason,
  type NewFaultRule,
  type RequestLogFilter,
  type SnapshotRestoreOptions,
  type TenantAddress,
  tenantPath,
} from './admin/client.js';
export type { AdminSnapshotImported, AdminTenantCloned, SnapshotFile } from './admin/portable.js';
export type { ProxyDeparture, ProxyDepartures, ProxyOperation } from './admin/proxy.js';
export {
  type JsonValue,
  type RequestDifference,
  type RequestMatcher,
  type RequestVerification,
  RequestVerificationError,
  verificationMessage,
} from './admin/request-log.js';
export * from './errors.js';
export { HrClient, type HrRawRequest } from './hr/client.js';
export {
  type CountMethod,
  type CreateMethod,
  type DelMethod,
  type DownloadResponse,
  type HrClientOptions,
  hrApiRoot,
  isBrowser,
  type ListMethod,
  type ListParams,
  type PreviewParams,
  type QueryParams,
  type RetrieveMethod,
  type UpdateMethod,
  type UploadInput,
  type UpsertMethod,
} from './hr/core.js';
export type { EventExportFormat } from './hr/events.js';
export type { RolePermissionModules } from './hr/roles.js';
export {
  type FetchLike,
  type HttpOptions,
  REDACTED,
  type RequestEvent,
  type RequestOptions,
  type ResponseEvent,
  type RetryEvent,
  redactHeaders,
  redactUrl,
} from './http.js';
export type * from './models.js';
export { AutoPager, type Page, type PageFetcher } from './pagination.js';
export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  type VerifyWebhookOptions,
  verifyWebhookSignature,
  WEBHOOK_HEADERS,
  type WebhookHeaders,
  WebhookSignatureError,
  type WebhookSignatureErrorReason,
} from './webhooks.js';
