import { type Static, Type } from '@sinclair/typebox';

/** The modules a client may have (`CoreClientFull.installed_modules`). */
export const MODULES = ['core', 'employee_file_management', 'electronic_signature', 'advanced_analytics'] as const;

/** A language code as the reference writes them (`en-us`, `fr-fr`): BCP 47 in lower case. */
const LanguageCode = (description = 'BCP 47, lower case (`en-us`).') =>
  Type.String({ pattern: '^[a-z]{2,3}(-[a-z0-9]{2,8})*$', maxLength: 35, description });

const Languages = Type.Array(LanguageCode(), { minItems: 1, maxItems: 50, uniqueItems: true });
const Url = Type.String({ description: "Where the module is reached on this server: its collection's address." });

/** `CoreClientFull` (`GET /client`, reference §5.1). */
export const CoreClient = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String({ maxLength: 50, description: "The client's name (its first 50 characters)." }),
    title: Type.String({ maxLength: 50 }),
    available_languages: Type.Array(Type.String()),
    default_language: Type.String(),
    tenant_id: Type.String({ format: 'uuid' }),
    employee_available_languages: Type.Array(Type.String()),
    timezone: Type.String({ description: 'An IANA time zone.' }),
    installed_modules: Type.Array(Type.Union(MODULES.map((m) => Type.Literal(m)))),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'CoreClientFull' },
);
export type CoreClient = Static<typeof CoreClient>;

/** The fields of `CoreSettingsFull` an operator may change. */
const coreFields = {
  enable_us_formats: Type.Boolean(),
  available_languages: Languages,
  default_language: LanguageCode('One of `available_languages`.'),
  allow_external_id_update: Type.Boolean(),
  authorize_access_outside_sso: Type.Boolean({ description: 'Deprecated.' }),
  allow_password_reset: Type.Boolean({ description: 'Deprecated.' }),
  password_options: Type.Object(
    {
      number_passwords_remembered: Type.Integer({ minimum: 0, maximum: 100 }),
      max_changes_per_day: Type.Integer({ minimum: 0, maximum: 100 }),
    },
    { additionalProperties: false },
  ),
  store_authn_id: Type.Union([Type.Boolean(), Type.Null()]),
};

/** `CoreSettingsFull` (`GET /settings/core`). */
export const CoreSettings = Type.Object(coreFields, { $id: 'CoreSettingsFull' });
export type CoreSettings = Static<typeof CoreSettings>;

const processAutomationFields = { enabled: Type.Boolean(), new_hire_experience: Type.Boolean() };

/** `ProcessAutomationSettingsFull` (`GET /settings/process_automation`). */
export const ProcessAutomationSettings = Type.Object(
  { ...processAutomationFields, url: Url },
  { $id: 'ProcessAutomationSettingsFull' },
);
export type ProcessAutomationSettings = Static<typeof ProcessAutomationSettings>;

const knowledgeBaseFields = {
  enabled: Type.Boolean(),
  display_popular_forms: Type.Boolean(),
  display_popular_articles: Type.Boolean(),
  display_featured_forms: Type.Boolean(),
  display_featured_articles: Type.Boolean(),
  display_employee_search_by_scope: Type.Boolean(),
};

/** `KnowledgeBaseSettings` (`GET /settings/knowledge_base`, reference §3e.5). */
export const KnowledgeBaseSettings = Type.Object(
  { ...knowledgeBaseFields, url: Url },
  { $id: 'KnowledgeBaseSettings' },
);
export type KnowledgeBaseSettings = Static<typeof KnowledgeBaseSettings>;

const caseManagementFields = {
  enabled: Type.Boolean(),
  employee_can_reopen_request: Type.Boolean(),
  language: Type.String({ minLength: 2, maxLength: 35, description: 'For example `en`.' }),
  calendar: Type.String({ minLength: 2, maxLength: 35, description: 'A holiday calendar code, for example `fr`.' }),
  display_default_forms: Type.Boolean(),
  display_popular_forms: Type.Boolean(),
  display_featured_forms: Type.Boolean(),
  allow_search_by_scope: Type.Boolean(),
  allow_archive_in_efm: Type.Boolean(),
  allow_teams: Type.Boolean(),
  allow_reassignation: Type.Boolean(),
};

/** `CaseManagementSettings` (`GET /settings/case_management`). */
export const CaseManagementSettings = Type.Object(
  { ...caseManagementFields, url: Url },
  { $id: 'CaseManagementSettings' },
);
export type CaseManagementSettings = Static<typeof CaseManagementSettings>;

const clientFields = {
  title: Type.String({ minLength: 1, maxLength: 50 }),
  employee_available_languages: Languages,
  timezone: Type.String({ minLength: 1, maxLength: 64, description: 'An IANA time zone (`Europe/Paris`).' }),
  installed_modules: Type.Array(Type.Union(MODULES.map((m) => Type.Literal(m))), { uniqueItems: true, maxItems: 4 }),
};

const partial = <T extends Record<string, import('@sinclair/typebox').TSchema>>(fields: T) =>
  Type.Optional(Type.Partial(Type.Object(fields, { additionalProperties: false })));

/**
 * What an operator changes (the admin API's `PATCH …/settings` and a staged configuration update): any fields of
 * any section; a field left out keeps its value. `client` holds the writable fields of `GET /client`; the core
 * section's languages are the client's too.
 */
export const SettingsChanges = Type.Object(
  {
    client: partial(clientFields),
    core: partial(coreFields),
    process_automation: partial(processAutomationFields),
    knowledge_base: partial(knowledgeBaseFields),
    case_management: partial(caseManagementFields),
  },
  { additionalProperties: false },
);
export type SettingsChanges = Static<typeof SettingsChanges>;

/** Every section of a client's settings, as the admin API shows them. */
export const AllSettings = Type.Object(
  {
    client: Type.Ref(CoreClient),
    core: Type.Ref(CoreSettings),
    process_automation: Type.Ref(ProcessAutomationSettings),
    knowledge_base: Type.Ref(KnowledgeBaseSettings),
    case_management: Type.Ref(CaseManagementSettings),
  },
  { $id: 'AllSettings' },
);
export type AllSettings = Static<typeof AllSettings>;

/** `PlatformUpdatePayload` (`POST /platform_updates`). */
export const PlatformUpdatePayload = Type.Object({
  config_update_id: Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'A configuration update staged by an operator.',
  }),
});
export type PlatformUpdatePayload = Static<typeof PlatformUpdatePayload>;

/** A staged configuration update, as the admin API answers it. */
export const ConfigUpdate = Type.Object(
  {
    id: Type.String(),
    changes: SettingsChanges,
    created_at: Type.String({ format: 'date-time' }),
    applied_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { $id: 'ConfigUpdate' },
);
export type ConfigUpdate = Static<typeof ConfigUpdate>;
