import { type Static, Type } from '@sinclair/typebox';
import { declareSortedList } from '../../lists/declaration.js';
import {
  WORKFLOW_DEFAULT_SORT,
  WORKFLOW_SORT_FIELDS,
  WorkflowId,
  WorkflowListQuery,
} from '../custom-statuses/schemas.js';

/**
 * What a macro action can do, by template. The reference names
 * `RequestChangeCustomState`; the others are Atrium's vocabulary for the
 * other changes HR makes through macros (docs/hr-api.md, "Macros").
 */
export const MACRO_TEMPLATES = [
  'RequestChangeState',
  'RequestChangeCustomState',
  'RequestChangePriority',
  'RequestAssignOnlyTo',
  'RequestAddAssignee',
  'RequestAddComment',
] as const;
export type MacroTemplate = (typeof MACRO_TEMPLATES)[number];

export const MacroAction = Type.Object({
  label: Type.Optional(Type.String({ maxLength: 255, description: 'Shown to HR; defaults from the template.' })),
  template: Type.Union(
    MACRO_TEMPLATES.map((t) => Type.Literal(t)),
    {
      description:
        'RequestChangeState `{status}`, RequestChangeCustomState `{custom_status}` (an id, or null to clear), RequestChangePriority `{priority: "1"|"2"|"3"}`, RequestAssignOnlyTo `{manager_id}`, RequestAddAssignee `{user_id}`, RequestAddComment `{content, is_internal}`.',
    },
  ),
  data: Type.Record(Type.String(), Type.Unknown()),
});
export type MacroAction = Static<typeof MacroAction>;

const Ids = (description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 500, uniqueItems: true, description });

const macroFields = {
  id: WorkflowId,
  name: Type.String(),
  label: Type.String(),
  description: Type.String(),
  active: Type.Boolean(),
  forms: Type.Array(Type.String(), {
    description: 'Request forms (slugs) the macro is offered on; empty: every form.',
  }),
  roles: Type.Array(Type.String(), { description: 'Roles allowed to run it; empty: every role.' }),
  custom_status: Type.Array(Type.String(), {
    description: 'Custom statuses a request must be in for the macro to be offered; empty: any.',
  }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
};

export const MacroList = Type.Object(macroFields, { $id: 'MacroList', title: 'MacroList' });
export type MacroList = Static<typeof MacroList>;

export const MacroDetail = Type.Object(
  { ...macroFields, actions: Type.Optional(Type.Array(MacroAction, { description: 'With `embed=actions`.' })) },
  { $id: 'MacroDetail', title: 'MacroDetail' },
);
export type MacroDetail = Static<typeof MacroDetail>;

export const MacroPut = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  label: Type.String({ minLength: 1, maxLength: 255 }),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
  active: Type.Optional(Type.Boolean({ default: true })),
  forms: Ids('Request form slugs; empty offers the macro on every form.'),
  roles: Type.Optional(Ids('Role ids; empty lets every role run it.')),
  custom_status: Type.Optional(Ids('Custom status ids the request must be in; empty: any.')),
  actions: Type.Array(MacroAction, { minItems: 1, maxItems: 50 }),
});
export type MacroPut = Static<typeof MacroPut>;

export const MacroParams = Type.Object({ id: WorkflowId });

/** `GET /macros`: sorted by `sort`, default `-updated_at`. */
export const MacroListDeclaration = declareSortedList('macros', WORKFLOW_SORT_FIELDS, WORKFLOW_DEFAULT_SORT);

export const MacroListQuery = Type.Object(
  {
    ...WorkflowListQuery,
    q: Type.Optional(
      Type.String({
        minLength: 3,
        maxLength: 255,
        description: 'Part of the name, label or description (at least 3).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type MacroListQuery = Static<typeof MacroListQuery>;
export const MacroCountQuery = Type.Object({ q: MacroListQuery.properties.q }, { additionalProperties: false });

export const MacroGetQuery = Type.Object(
  { embed: Type.Optional(Type.Literal('actions', { description: '`actions` adds the actions.' })) },
  { additionalProperties: false },
);
