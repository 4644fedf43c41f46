import type { DocumentExamples } from '../platform/http/openapi.js';

/**
 * A sample IdP signing certificate: self-signed (`O=Acme Group, CN=idp.acme.example`, P-256, valid until 2126), made
 * with openssl for the demo seed, the OpenAPI examples and the test fixtures. Its private key was never kept.
 */
export const SAMPLE_SAML_CERTIFICATE = `
-----BEGIN CERTIFICATE-----
MIIBtjCCAV2gAwIBAgIUIG32eP02tGx0vtVQgNObgo+MQuEwCgYIKoZIzj0EAwIw
MDETMBEGA1UECgwKQWNtZSBHcm91cDEZMBcGA1UEAwwQaWRwLmFjbWUuZXhhbXBs
ZTAgFw0yNjEyMDcxMDM3NTBaGA8yMTI2MTExMzEwMzc1MFowMDETMBEGA1UECgwK
QWNtZSBHcm91cDEZMBcGA1UEAwwQaWRwLmFjbWUuZXhhbXBsZTBZMBMGByqGSM49
AgEGCCqGSM49AwEHA0IABOfWLIBk8kGleiIhAYnyQgk7Lk6jSwctHX1xIzO5NJPm
nEyyC4UXWkKSloTHlYuqPXMsXUkv3e2xZZ/B7TzIeDajUzBRMB0GA1UdDgQWBBT5
APLxftWfmvpGMLtm7JBUMhuTdzAfBgNVHSMEGDAWgBT5APLxftWfmvpGMLtm7JBU
MhuTdzAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0cAMEQCIEpqE3a9nwDf
JYeYXpBf42qQ//RzKNeVfMgzCp+PBF+YAiBbbkkxi5v6GF54SBSCJZ9pkLdqTyk4
5e13Cr9yjsGrUg==
-----END CERTIFICATE-----
`.trimStart();

/** A SAML identity provider's body, with the sample certificate. */
const SAML_IDP = {
  name: 'Acme managers IdP',
  entity_id: 'https://idp.acme.example/saml/managers',
  sso_endpoint: 'https://idp.acme.example/sso',
  x509_certificate: SAMPLE_SAML_CERTIFICATE,
  scope: 'manager',
  workflow_type: 'SP initiated',
};

/**
 * Examples of the HR API's main bodies in the OpenAPI document: by component schema (every response of that schema
 * shows it), and by operation for request bodies and particular responses.
 * Taken from a real exchange with the server (the README's walkthrough), with ids and times made fixed;
 * test/platform/openapi-document.test.ts validates each against the schema it illustrates.
 */
export const HR_EXAMPLES: DocumentExamples = {
  components: {
    OrganizationFull: {
      id: 'acme-fr',
      name: 'Acme France',
      description: null,
      parent_organization_id: 'acme',
      corporate_name: null,
      address1: null,
      address2: null,
      zip_code: null,
      city: null,
      country: null,
      contact_firstname: null,
      contact_lastname: null,
      contact_email: null,
      contact_phone_number: null,
      has_children: false,
      created_at: '2031-03-02T09:30:00+00:00',
      updated_at: '2031-03-02T09:30:00+00:00',
    },
    EmployeeFull: {
      id: '0f6b7a8e-2c3d-4e5f-8a9b-1c2d3e4f5a6b',
      external_id: 'E-0001',
      firstname: 'Ada',
      lastname: 'Lovelace',
      email: 'ada@example.com',
      language: null,
      maidenname: null,
      middlename: null,
      country: null,
      starting_date: null,
      mobile_phone_number: null,
      birth_date: null,
      address1: null,
      address2: null,
      address3: null,
      zip_code: null,
      city: null,
      state: null,
      registration_references: [
        {
          organization_id: 'acme-fr',
          employee_number: '0001',
          active: true,
          departure_date: null,
          created_at: '2031-03-02T09:30:00+00:00',
          updated_at: '2031-03-02T09:30:00+00:00',
        },
      ],
      custom_fields: [],
      status: 'active',
      terminated: false,
      departure_date: null,
      created_at: '2031-03-02T09:30:00+00:00',
      updated_at: '2031-03-02T09:30:00+00:00',
    },
    EmployeeDocumentFull: {
      id: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
      document_type_id: 'contract',
      title: 'Employment contract',
      name: 'contract.txt',
      date: null,
      organization_ids: ['acme-fr'],
      metadata: [],
      external_reference: null,
      origin: 'api',
      origin_details: null,
      sender_id: null,
      trashed: false,
      expired: false,
      expiry_date: null,
      created_at: '2031-03-02T09:30:00+00:00',
      updated_at: '2031-03-02T09:30:00+00:00',
      employee_id: '0f6b7a8e-2c3d-4e5f-8a9b-1c2d3e4f5a6b',
      employee_external_id: 'E-0001',
    },
    RequestFullWithAttachments: {
      id: '7c8d9e0f-1a2b-4c3d-9e4f-5a6b7c8d9e0f',
      request_number: '1',
      name: 'Payslip question',
      status: 'created',
      priority: '2',
      organization_ids: ['acme-fr'],
      form_id: 'payslip-question',
      form_data: [
        {
          field_id: 'question',
          values: ['Why is my bonus missing?'],
        },
      ],
      form_files: [],
      due_date: null,
      custom_status: null,
      category: {
        id: '6b1f2c1e-3d4a-4b5c-9d6e-7f8091a2b3c4',
        name: 'Payroll',
      },
      feedback: null,
      origin: 'API',
      read_by_employee: false,
      public_comment_count: 0,
      internal_comment_count: 0,
      total_comment_count: 0,
      public_deleted_comment_count: 0,
      internal_deleted_comment_count: 0,
      total_deleted_comment_count: 0,
      attachment_count: 0,
      read_only: false,
      visible_by_employee: false,
      need_edit_by_employee: false,
      created_at: '2031-03-02T09:30:00+00:00',
      updated_at: '2031-03-02T09:30:00+00:00',
      closed_at: null,
      archived_at: null,
      attachments: [],
      employee_id: '0f6b7a8e-2c3d-4e5f-8a9b-1c2d3e4f5a6b',
      creator_id: null,
      closed_by_id: null,
    },
    RequestFull: {
      id: '7c8d9e0f-1a2b-4c3d-9e4f-5a6b7c8d9e0f',
      request_number: '1',
      name: 'Payslip question',
      status: 'created',
      priority: '2',
      organization_ids: ['acme-fr'],
      form_id: 'payslip-question',
      form_data: [
        {
          field_id: 'question',
          values: ['Why is my bonus missing?'],
        },
      ],
      form_files: [],
      due_date: null,
      custom_status: null,
      category: {
        id: '6b1f2c1e-3d4a-4b5c-9d6e-7f8091a2b3c4',
        name: 'Payroll',
      },
      feedback: null,
      origin: 'API',
      read_by_employee: false,
      public_comment_count: 0,
      internal_comment_count: 0,
      total_comment_count: 0,
      public_deleted_comment_count: 0,
      internal_deleted_comment_count: 0,
      total_deleted_comment_count: 0,
      attachment_count: 0,
      read_only: false,
      visible_by_employee: false,
      need_edit_by_employee: false,
      created_at: '2031-03-02T09:30:00+00:00',
      updated_at: '2031-03-02T09:30:00+00:00',
      closed_at: null,
      archived_at: null,
      employee_id: '0f6b7a8e-2c3d-4e5f-8a9b-1c2d3e4f5a6b',
      creator_id: null,
      closed_by_id: null,
    },
    RequestComment: {
      id: '3e4f5a6b-7c8d-4e9f-8a0b-1c2d3e4f5a6b',
      created_at: '2031-03-02T09:30:00+00:00',
      content: 'It was paid in March.',
      is_informative: false,
      is_internal: false,
      comment_source: 'user',
      is_deleted: false,
      attachments: [],
      creator_id: '0f6b7a8e-2c3d-4e5f-8a9b-1c2d3e4f5a6b',
    },
    SamlIdentityProviderFull: {
      id: '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b',
      ...SAML_IDP,
      activated: true,
      enable_sp_session: false,
      next_logout_url: 'http://www.people-doc.com/',
    },
    HrError: {
      code: 'not_found',
      message: 'organization "nope" was not found',
    },
  },
  requests: {
    'POST /tokens': {
      grant_type: 'client_credentials',
      scope: 'client',
      client_id: 'ca2b80b4-3acc-42c1-bccc-28f623c1794c',
    },
    'PUT /organizations/{id}': {
      name: 'Acme France',
      parent_organization_id: 'acme',
    },
    // Inactive, so that a run of the Postman collection (its POST, then a PUT at an id it read) meets no 409.
    'POST /saml/identity_providers': SAML_IDP,
    'PUT /saml/identity_providers/{id}': SAML_IDP,
    'PATCH /saml/identity_providers/{id}': { next_logout_url: 'https://intranet.acme.example/' },
    'POST /employees': {
      firstname: 'Ada',
      lastname: 'Lovelace',
      email: 'ada@example.com',
      external_id: 'E-0001',
      registration_references: [
        {
          organization_id: 'acme-fr',
          employee_number: '0001',
        },
      ],
    },
    'POST /employee_documents': {
      employee_id: '0f6b7a8e-2c3d-4e5f-8a9b-1c2d3e4f5a6b',
      document_type_id: 'contract',
      uploaded_file: {
        filename: 'contract.txt',
        file_id: '5d2e1f0a-9b8c-4d7e-a6f5-e4d3c2b1a090',
      },
      title: 'Employment contract',
    },
    'POST /requests': {
      form_id: 'payslip-question',
      employee_id: '0f6b7a8e-2c3d-4e5f-8a9b-1c2d3e4f5a6b',
      form_data: [
        {
          field_id: 'question',
          values: ['Why is my bonus missing?'],
        },
      ],
    },
    'POST /requests/{id}/comments': {
      content: 'It was paid in March.',
      creator_id: '0f6b7a8e-2c3d-4e5f-8a9b-1c2d3e4f5a6b',
    },
  },
  responses: {
    'POST /tokens': {
      '200': {
        access_token:
          'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6IjE5ZDNkIn0.eyJjaWQiOiJhY21lIiwic2NvcGUiOiJjbGllbnQifQ.c2lnbmF0dXJl',
        token_type: 'bearer',
        expires_in: 3600,
      },
    },
    'POST /document': {
      '201': {
        filename: 'contract.txt',
        file_id: '5d2e1f0a-9b8c-4d7e-a6f5-e4d3c2b1a090',
      },
    },
    'PUT /organizations/{id}': {
      '422': {
        code: 'validation_error',
        message: 'Validation failed.',
        errors: [
          {
            field: 'name',
            code: 'too_short',
            message: 'At least 1 characters.',
          },
        ],
      },
    },
    'PATCH /organizations/{id}': {
      '422': {
        code: 'validation_error',
        message: 'Validation failed.',
        errors: [
          {
            field: 'name',
            code: 'too_short',
            message: 'At least 1 characters.',
          },
        ],
      },
    },
  },
};
