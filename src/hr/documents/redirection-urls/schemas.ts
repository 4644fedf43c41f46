import { type Static, Type } from '@sinclair/typebox';

/** Reference §3c.6: `GET /redirection_urls`. */

export const RedirectionUrlsQuery = Type.Object(
  {
    employee_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'An employee: adds `account/employee_root_folder_url` (their documents).',
      }),
    ),
    doctype_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description:
          'A document type: an employee one adds `employee_space/employee_folder`, a company one `document/enterprise_document_upload`.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type RedirectionUrlsQuery = Static<typeof RedirectionUrlsQuery>;

const Url = (description: string) => Type.String({ format: 'uri', description });

/**
 * `RedirectionUrls`: keys that hold slashes, as in the reference. Atrium has no web application of its own, so each
 * URL is the client API's own resource that the page would show (docs/hr-api.md, "Redirection URLs").
 */
export const RedirectionUrls = Type.Object(
  {
    'employee_space/employee_root_folder_url': Url('The employee folders (`GET /employee_folders`).'),
    'document/employee_document_upload': Url(
      'Where an employee document is made (`POST /employee_documents`, after `POST /document/upload`).',
    ),
    'account/employee_root_folder_url': Type.Optional(
      Url('With `employee_id`: the employee’s documents (`GET /employee_documents?employee_id=…`).'),
    ),
    'employee_space/employee_folder': Type.Optional(
      Url(
        'With the `doctype_id` of an employee document type: its documents (`GET /employee_documents?document_type_id=…`, and the employee’s only with `employee_id`).',
      ),
    ),
    'document/enterprise_document_upload': Type.Optional(
      Url(
        'With the `doctype_id` of a company document type: its company documents (`GET /company_documents?document_type_id=…`; `POST /company_documents` makes one).',
      ),
    ),
  },
  { title: 'RedirectionUrls' },
);
export type RedirectionUrls = Static<typeof RedirectionUrls>;
