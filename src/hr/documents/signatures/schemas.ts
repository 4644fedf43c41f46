import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { declareList, declareSortedList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';
import { SortQuery } from '../../lists/sort.js';
import { MetaData } from '../documents/schemas.js';

/** Reference §5.4. */

/**
 * A copy of a schema without its `default`s: the body checker fills defaults in, which a PATCH must not do (a
 * field it does not name keeps its value).
 */
function withoutDefaults<T extends TSchema>(schema: T): T {
  const copy = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(copy);
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string | symbol, unknown> = {};
    for (const key of Reflect.ownKeys(value)) {
      if (key !== 'default') out[key] = copy((value as Record<string | symbol, unknown>)[key]);
    }
    return out;
  };
  return copy(schema) as T;
}

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description ? { description } : {});
const OptText = (maxLength: number, description?: string) =>
  Type.Optional(Nullable(Type.String({ maxLength }), description));
const DateText = (description: string) => Type.String({ format: 'date', description: `${description} YYYY-MM-DD.` });

export const PROCESS_STATES = [
  'draft',
  'signing',
  'signed',
  'sending',
  'sent',
  'done',
  'expired',
  'rejected',
  'error',
  'canceled',
  'id_check_failed',
] as const;
export type ProcessState = (typeof PROCESS_STATES)[number];

export const SIGNER_STATES = [
  'pending',
  'in_progress',
  'signed',
  'rejected',
  'error',
  'done',
  'delivered',
  'delayed',
] as const;
export type SignerState = (typeof SIGNER_STATES)[number];

export const SIGNER_TYPES = ['organization', 'user', 'employee', 'external'] as const;
export type SignerType = (typeof SIGNER_TYPES)[number];

export const SignatureProcessId = Type.String({ format: 'uuid', description: 'Signature process id.' });
export const SignatureProcessParams = Type.Object({ id: SignatureProcessId });
export const SignerId = Type.String({ format: 'uuid', description: 'Signer id.' });
export const SignerParams = Type.Object({ id: SignerId });

const Person = Type.Object({ id: Type.String(), first_name: Type.String(), last_name: Type.String() });

/** The fields a client sets, on create and update (`SignatureProcessBase`). */
const processBase = {
  signature_type_id: Type.String({ minLength: 1, maxLength: 100, description: 'A `GET /signature_types` id.' }),
  title: Type.String({ minLength: 1, maxLength: 255 }),
  reason: Type.String({ minLength: 1, maxLength: 1000, description: 'Why the document is signed.' }),
  location: Type.Optional(Type.String({ maxLength: 255, default: 'N/A' })),
  expiry_date: Type.Optional(
    Nullable(
      DateText(
        'The last day to sign (it ends at midnight UTC). Default: two weeks after signing starts. Must be after today.',
      ),
    ),
  ),
  notify_on_signature: Type.Optional(Type.Boolean({ default: false })),
  notify_on_refusal: Type.Optional(Type.Boolean({ default: true })),
  document_type_id: OptText(100, 'The employee document type `archive` files the signed document under.'),
  document_metadata: Type.Optional(Type.Array(MetaData, { maxItems: 100 })),
  document_date: Type.Optional(Nullable(DateText('The date of the archived document.'))),
  cancellation_comment: OptText(255),
  message: OptText(2000, 'Shown to the signers in their invitation.'),
  notify_employee_ids: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 100 })),
  external_id: OptText(255),
  auto_send: Type.Optional(
    Type.String({
      enum: ['true', 'false'],
      default: 'false',
      description: 'Typed as a string by the reference: `"true"` mails the signed document to the signers once done.',
    }),
  ),
  callback_url: Type.Optional(
    Nullable(
      Type.String({ maxLength: 2048, format: 'uri' }),
      'Called (POST) at completion, refusal and expiry, with the process.',
    ),
  ),
};

export const SignatureProcess = Type.Object(
  {
    id: Type.String(),
    signature_type_id: Type.String(),
    title: Type.String(),
    reason: Type.String(),
    name: Type.String({ description: 'The name of the PDF to sign.' }),
    location: Type.String(),
    expiry_date: Nullable(Type.String({ format: 'date' })),
    notify_on_signature: Type.Boolean(),
    notify_on_refusal: Type.Boolean(),
    document_type_id: Nullable(Type.String()),
    document_metadata: Type.Array(MetaData),
    document_date: Nullable(Type.String({ format: 'date' })),
    cancellation_comment: Nullable(Type.String()),
    file_number: Type.String(),
    is_cancelable: Type.Boolean(),
    is_deletable: Type.Boolean(),
    message: Nullable(Type.String()),
    notify_employee_ids: Type.Array(Type.String()),
    external_id: Nullable(Type.String()),
    auto_send: Type.String(),
    callback_url: Nullable(Type.String()),
    state: Type.String({ enum: [...PROCESS_STATES] }),
    sender: Type.Union([Person, Type.Null()]),
    signers: Type.Array(
      Type.Object({
        id: Type.String(),
        first_name: Type.String(),
        last_name: Type.String(),
        state: Type.String({ enum: [...SIGNER_STATES] }),
      }),
    ),
    document_organizations: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'SignatureProcessFull', title: 'SignatureProcessFull' },
);
export type SignatureProcess = Static<typeof SignatureProcess>;

export const SignatureProcessCreate = Type.Object({
  ...processBase,
  upload_id: Type.String({ format: 'uuid', description: 'The PDF to sign: the `id` of `POST /uploads`.' }),
  sender_id: OptText(64, 'The HR user who sends it.'),
  document_organization_ids: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 100 }),
  ),
});
export type SignatureProcessCreate = Static<typeof SignatureProcessCreate>;

const stateInput = Type.Optional(
  Type.String({
    enum: [...PROCESS_STATES],
    description:
      '`signing` starts a draft (it needs a signer); `canceled` cancels a draft, signing or signed process. Any other change of state is a 400.',
  }),
);

export const SignatureProcessPut = Type.Object({
  ...processBase,
  sender_id: OptText(64, 'The HR user who sends it.'),
  document_organization_ids: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 100 }),
  ),
  state: stateInput,
});
export type SignatureProcessPut = Static<typeof SignatureProcessPut>;
export const SignatureProcessPatch = Type.Partial(withoutDefaults(SignatureProcessPut));
export type SignatureProcessPatch = Static<typeof SignatureProcessPatch>;

export const PROCESS_SORT_FIELDS = ['created_at', 'expiry_date', 'title'] as const;
export type ProcessSortField = (typeof PROCESS_SORT_FIELDS)[number];
export const SignatureProcessList = declareSortedList('signature_processes', PROCESS_SORT_FIELDS, '-created_at');

const csv = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 4000, description }));

export const SignatureProcessListQuery = Type.Object(
  {
    ...PaginationQuery,
    page: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100000, description: '1-based page number (with `per_page`).' }),
    ),
    employee_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Processes it signs.' })),
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description: 'Part of the title, a signer’s name or the file number.',
      }),
    ),
    organization_ids: csv('Comma-separated organization ids: processes of any of them.'),
    organization_id_below: Type.Optional(
      Type.String({ minLength: 1, maxLength: 255, description: 'Processes of this organization or one below it.' }),
    ),
    created_date_since: Type.Optional(DateText('Created on or after this day (UTC).')),
    created_date_until: Type.Optional(DateText('Created on or before this day (UTC).')),
    state: csv(
      'Comma-separated states among draft, signing, signed, sending, sent, done, expired, rejected, error, canceled.',
    ),
    sort: SortQuery(PROCESS_SORT_FIELDS, '-created_at'),
  },
  { additionalProperties: false },
);
export type SignatureProcessListQuery = Static<typeof SignatureProcessListQuery>;

export const SignatureProcessCancel = Type.Object({
  signature_ids: Type.Array(SignatureProcessId, { minItems: 1, maxItems: 100, uniqueItems: true }),
  cancellation_comment: OptText(255),
});
export type SignatureProcessCancel = Static<typeof SignatureProcessCancel>;

const Position = Type.Object({
  page: Type.Integer({ minimum: 1 }),
  unit: Type.String({ enum: ['cm', 'inch', 'pt'] }),
  x: Type.Number({ minimum: 0 }),
  y: Type.Number({ minimum: 0 }),
  width: Type.Number({ exclusiveMinimum: 0 }),
  height: Type.Number({ exclusiveMinimum: 0 }),
});
const TwoFactor = Type.Object({ sms: Type.Boolean(), email: Type.Boolean() });

/** `SignerBase`: what a client sets. */
const signerBase = {
  first_name: Type.String({ minLength: 1, maxLength: 70 }),
  last_name: Type.String({ minLength: 1, maxLength: 70 }),
  type: Type.Optional(
    Type.String({
      enum: [...SIGNER_TYPES],
      default: 'external',
      description: '`organization` (a delegation seal), `user`, `employee` or `external`.',
    }),
  ),
  signature_positions: Type.Optional(
    Type.Array(Position, {
      maxItems: 20,
      description: 'Where the signature goes (Protect & Sign types only); Atrium stamps it there.',
    }),
  ),
  user_id: OptText(64, 'The HR user, for a `user` signer.'),
  employee_id: OptText(64, 'The employee, for an `employee` signer.'),
  language: OptText(10),
  email_address: Type.Optional(Nullable(Type.String({ maxLength: 254, format: 'email' }))),
  mobile_phone_number: OptText(50),
  signing_order: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: 1, description: 'Lower orders sign first.' }),
  ),
  access_code: OptText(100, 'A code the signer must give to sign. Stored as a hash: answers always show null.'),
  sms_notification: Type.Optional(Type.Boolean({ default: false })),
  two_factor_auth: Type.Optional(Type.Union([TwoFactor, Type.Null()])),
  message: OptText(550),
  send_signed_document: Type.Optional(Type.Boolean({ default: false })),
};

export const Signer = Type.Object(
  {
    id: Type.String(),
    signature_process_id: Type.String(),
    first_name: Type.String(),
    last_name: Type.String(),
    type: Type.String({ enum: [...SIGNER_TYPES] }),
    signature_positions: Type.Array(Position),
    user_id: Nullable(Type.String()),
    employee_id: Nullable(Type.String()),
    language: Nullable(Type.String()),
    email_address: Nullable(Type.String()),
    mobile_phone_number: Nullable(Type.String()),
    signing_order: Type.Integer(),
    access_code: Type.Null({ description: 'Never shown (only its hash is kept).' }),
    sms_notification: Type.Boolean(),
    two_factor_auth: Type.Union([TwoFactor, Type.Null()]),
    message: Nullable(Type.String()),
    send_signed_document: Type.Boolean(),
    signing_url: Nullable(Type.String(), 'The signer’s page on this server, while the process is signing.'),
    signed_at: Nullable(Type.String({ format: 'date-time' })),
    state: Type.String({ enum: [...SIGNER_STATES] }),
  },
  { $id: 'SignerFull', title: 'SignerFull' },
);
export type Signer = Static<typeof Signer>;

export const SignerCreate = Type.Object({ signature_process_id: SignatureProcessId, ...signerBase });
export type SignerCreate = Static<typeof SignerCreate>;
export const SignerPut = Type.Object(signerBase);
export type SignerPut = Static<typeof SignerPut>;
export const SignerPatch = Type.Partial(withoutDefaults(SignerPut));
export type SignerPatch = Static<typeof SignerPatch>;

export const SignerListQuery = Type.Object(
  { signature_process_id: SignatureProcessId },
  { additionalProperties: false },
);
export type SignerListQuery = Static<typeof SignerListQuery>;

export const SignerRemind = Type.Object({
  signer_ids: Type.Array(SignerId, { minItems: 1, maxItems: 100, uniqueItems: true }),
});
export type SignerRemind = Static<typeof SignerRemind>;

/** `POST /signers/{id}/sign` (an Atrium extension). */
export const SignerSign = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 140, description: 'The signer’s name, as typed to sign.' }),
  access_code: Type.Optional(Type.String({ maxLength: 100, description: 'Required when the signer has one.' })),
});
export type SignerSign = Static<typeof SignerSign>;

/** `POST /signers/{id}/refuse` (an Atrium extension). */
export const SignerRefuse = Type.Object({
  comment: Type.String({ minLength: 1, maxLength: 550, description: 'Why the signer refuses.' }),
  access_code: Type.Optional(Type.String({ maxLength: 100, description: 'Required when the signer has one.' })),
});
export type SignerRefuse = Static<typeof SignerRefuse>;

/** `SignatureTypeFull`. */
export const SignatureType = Type.Object(
  {
    id: Type.String(),
    backend_code: Type.String({ enum: ['docusign', 'docusign_protect_and_sign', 'adobesign'] }),
    localized_title: Type.Record(Type.String(), Type.String()),
    localized_description: Type.Record(Type.String(), Type.String()),
    display_in_ui: Type.Boolean(),
    title: Type.String(),
    description: Type.String(),
    default_sms_notification: Type.Object({ user: Type.Boolean(), employee: Type.Boolean(), guest: Type.Boolean() }),
    two_factor_auth_settings: Type.Union([
      Type.Object({
        mode: Type.String({ enum: ['sms', 'email'] }),
        value_user: Type.Boolean(),
        value_employee: Type.Boolean(),
        value_guest: Type.Boolean(),
      }),
      Type.Null(),
    ]),
    include_signer_link: Type.Boolean(),
    storage_profile: Type.String({ enum: ['peopledoc-sae', 'fr-cdc'] }),
    signer_can_reject: Type.Boolean(),
    delegation: Type.Boolean(),
    template_id: Nullable(Type.String()),
    external_authentication: Type.Boolean(),
    docusign_settings: Type.Null({ description: 'Atrium is its own signing backend: no provider settings.' }),
    docusign_provider: Nullable(Type.String()),
    docusign_protect_and_sign_settings: Type.Null(),
    display_terms_on_signature_portal: Type.Boolean(),
    created_at: Nullable(Type.String({ format: 'date-time' })),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'SignatureTypeFull', title: 'SignatureTypeFull' },
);
export type SignatureType = Static<typeof SignatureType>;
export const SignatureTypeParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
export const SignatureTypeList = declareList('signature_types');
export const SignatureTypeListQuery = Type.Object({ ...PaginationQuery }, { additionalProperties: false });
export type SignatureTypeListQuery = Static<typeof SignatureTypeListQuery>;
