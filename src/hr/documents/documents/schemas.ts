import { type Static, Type } from '@sinclair/typebox';
import { declareList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';

const DateText = (description: string) => Type.String({ format: 'date', description: `${description} YYYY-MM-DD.` });
const OptDate = (description: string) => Type.Optional(Type.Union([DateText(description), Type.Null()]));
const Text = (maxLength: number, description?: string) =>
  Type.Optional(Type.Union([Type.String({ maxLength }), Type.Null()], description ? { description } : {}));
const Codes = (description: string, maxItems = 500) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems, description });

export const DocumentId = Type.String({ format: 'uuid', description: 'Document id.' });
export const DocumentParams = Type.Object({ id: DocumentId });

/** `MetaDataBase`: a metadata value of a document. */
export const MetaData = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 255, description: 'A metadata code of the document type.' }),
  value: Type.String({ maxLength: 1000, description: 'An integer, a date (YYYY-MM-DD), a text or a list value.' }),
});

/** `DocumentFileId`: the file of a new document, from `POST /document` or `POST /uploads`. */
export const UploadedFile = Type.Object({
  filename: Type.String({ minLength: 1, maxLength: 255, description: 'Name of the file (never used as a path).' }),
  file_id: Type.String({
    format: 'uuid',
    description: 'The `file_id` of `POST /document` or the `id` of `POST /uploads`.',
  }),
});

const commonBase = {
  document_type_id: Type.String({ minLength: 1, maxLength: 255, description: 'The document type.' }),
  title: Text(255),
  date: OptDate('Document date; lists and date filters use it instead of the upload date.'),
  metadata: Type.Optional(Type.Array(MetaData, { maxItems: 100 })),
  external_reference: Text(255, 'Reference in another tool.'),
};

const employeeBase = {
  employee_id: Type.Optional(
    Type.String({ maxLength: 36, description: 'Owner. Required on create unless employee_external_id is given.' }),
  ),
  employee_external_id: Type.Optional(
    Type.String({ maxLength: 255, description: 'Owner by external id; ignored when employee_id is given.' }),
  ),
  ...commonBase,
  organization_ids: Type.Optional(
    Codes(
      'Organizations the document is attached to; the employee must belong to each. Default: the employee’s active organizations (inactive ones for a terminated employee).',
    ),
  ),
  external_reference_is_unique: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'When true, another employee document with the same external_reference is a 409.',
    }),
  ),
};

const companyBase = {
  ...commonBase,
  organization_ids: Codes('Organizations the document is attached to (at least one).'),
};

export const EmployeeDocumentCreate = Type.Object(
  { ...employeeBase, uploaded_file: UploadedFile },
  { additionalProperties: false },
);
export const EmployeeDocumentUpdate = Type.Object(employeeBase, { additionalProperties: false });
export const EmployeeDocumentPatch = Type.Partial(Type.Object(employeeBase), { additionalProperties: false });
export const CompanyDocumentCreate = Type.Object(
  {
    ...companyBase,
    organization_ids: Codes('Organizations the document is attached to.', 500),
    uploaded_file: UploadedFile,
  },
  { additionalProperties: false },
);
export const CompanyDocumentUpdate = Type.Object(companyBase, { additionalProperties: false });
export const CompanyDocumentPatch = Type.Partial(Type.Object(companyBase), { additionalProperties: false });

/** Every field a write of either kind may carry (what the service reads). */
export type DocumentInput = Partial<Static<typeof EmployeeDocumentCreate>> &
  Partial<Static<typeof CompanyDocumentCreate>>;

const ORIGINS = ['api', 'distribution', 'doc_management', 'mass_mailing', 'signature', 'web'] as const;

const fullCommon = {
  id: DocumentId,
  document_type_id: Type.String(),
  title: Type.Union([Type.String(), Type.Null()]),
  name: Type.String({ description: 'Name of the document: its file name.' }),
  date: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
  organization_ids: Type.Array(Type.String()),
  metadata: Type.Array(MetaData),
  external_reference: Type.Union([Type.String(), Type.Null()]),
  origin: Type.Union(
    ORIGINS.map((o) => Type.Literal(o)),
    { description: '`api` for documents created through this API.' },
  ),
  origin_details: Type.Union([Type.String(), Type.Null()]),
  sender_id: Type.Union([Type.String(), Type.Null()], { description: 'Uploader; null when unknown (an application).' }),
  trashed: Type.Boolean(),
  expired: Type.Boolean({ description: 'True once expiry_date (the end of the retention period) has passed.' }),
  expiry_date: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
    description: 'End of the retention period.',
  }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
};

export const EmployeeDocument = Type.Object(
  {
    ...fullCommon,
    employee_id: Type.String(),
    employee_external_id: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'EmployeeDocumentFull', title: 'EmployeeDocumentFull' },
);
export type EmployeeDocument = Static<typeof EmployeeDocument>;
export const CompanyDocument = Type.Object(fullCommon, { $id: 'CompanyDocumentFull', title: 'CompanyDocumentFull' });
export type CompanyDocument = Static<typeof CompanyDocument>;

export const CompactEmployeeDocument = Type.Object(
  {
    id: DocumentId,
    employee_id: Type.String(),
    employee_external_id: Type.Union([Type.String(), Type.Null()]),
    external_reference: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'EmployeeDocumentCompact' },
);

/** The search filters (reference §3c.2): JSON in `POST /employee_documents/search`, query in the GET lists. */
const filterFields = {
  document_type_id: Type.Optional(Type.String({ maxLength: 255 })),
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'Full text over title, file name, employee names and numbers (or organizations).',
    }),
  ),
  trashed: Type.Optional(
    Type.Boolean({ default: false, description: 'Only trashed documents when true; only others otherwise.' }),
  ),
  external_reference: Type.Optional(Type.String({ maxLength: 255, description: 'Exact.' })),
  organization_id_below: Type.Optional(
    Type.String({ maxLength: 255, description: 'Documents of this organization or below.' }),
  ),
  date_since: Type.Optional(DateText('Document date (the upload day when empty) on or after.')),
  date_until: Type.Optional(DateText('Document date (the upload day when empty) on or before.')),
  origin: Type.Optional(Type.String({ maxLength: 32 })),
  expired: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'Only documents past their retention period when true; only others otherwise.',
    }),
  ),
  expiry_date_since: Type.Optional(DateText('Retention end on or after.')),
  expiry_date_until: Type.Optional(DateText('Retention end on or before.')),
};
const employeeFilterFields = {
  ...filterFields,
  employee_id: Type.Optional(Type.String({ maxLength: 36 })),
  created_at_since: Type.Optional(DateText('Uploaded on or after.')),
  created_at_until: Type.Optional(DateText('Uploaded on or before.')),
};

export const EmployeeDocumentSearch = Type.Object(
  {
    ...employeeFilterFields,
    organization_ids: Type.Optional(Codes('Documents attached to any of these organizations.')),
    employee_numbers: Type.Optional(Codes('Documents of employees with any of these registration numbers.')),
    expiration_date_until: Type.Optional(DateText('Documents whose expiration_date is on or before.')),
    compact_response: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'Only id, employee_id, employee_external_id and external_reference.',
      }),
    ),
    per_page: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 100,
        default: 20,
        description:
          'Page size (default 20, at most 100: a larger value is served as 100, or refused with ATRIUM_STRICT=1).',
      }),
    ),
    page: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 100_000,
        description: 'Page number (1-based), as in the reference. Prefer next_cursor.',
      }),
    ),
    next_cursor: Type.Optional(
      Type.String({
        pattern: '^[0-9]+$',
        maxLength: 4096,
        description: 'The Next-Cursor (or Previous-Cursor) header of a previous page.',
      }),
    ),
  },
  { additionalProperties: false },
);
/** The filters of any document list: arrays in the JSON search, comma-separated text in query strings. */
export type DocumentFilters = Omit<
  Partial<Static<typeof EmployeeDocumentSearch>>,
  'organization_ids' | 'employee_numbers'
> & {
  organization_ids?: string | string[];
  employee_numbers?: string | string[];
};

const csvList = (description: string) => Type.Optional(Type.String({ maxLength: 10_000, description }));

/** `GET /{employee|company}_documents` and `POST /employee_documents/search`: in creation order, one list per kind. */
export const DOCUMENT_LISTS = {
  employee: declareList('employee_documents'),
  company: declareList('company_documents'),
};

export const EmployeeDocumentListQuery = Type.Object(
  {
    ...PaginationQuery,
    ...employeeFilterFields,
    organization_ids: csvList('Comma-separated organization codes.'),
    employee_numbers: csvList('Comma-separated registration numbers.'),
  },
  { additionalProperties: false },
);
export const CompanyDocumentListQuery = Type.Object(
  { ...PaginationQuery, ...filterFields, organization_ids: csvList('Comma-separated organization codes.') },
  { additionalProperties: false },
);

export const ExpirePayload = Type.Object(
  { expiry_date: Type.Union([DateText('End of the retention period; null falls back to none.'), Type.Null()]) },
  { additionalProperties: false },
);
export const ExpirationPayload = Type.Object(
  { expiration_date: Type.Union([DateText('End of validity; null means none.'), Type.Null()]) },
  { additionalProperties: false },
);

/** Atrium extension: act for one HR user, whose roles and perimeters then decide (docs/hr-api.md). */
export const ActingUserHeaders = Type.Object({
  'x-atrium-user-id': Type.Optional(
    Type.String({
      format: 'uuid',
      description:
        'Atrium extension: the id of an HR user (`/users`) this call acts for. The document types’ `user_access_permissions`, the user’s roles and perimeters then decide what the call may see and do (403 otherwise; lists only show what the user may view). Without it, the application acts for itself.',
    }),
  ),
});
