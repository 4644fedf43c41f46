/** Column types of this resource's tables, as Kysely sees them (instants in epoch ms, booleans as 0/1). */

import type { Generated } from 'kysely';

/** A distribution project (reference §5.6): its settings, and its status, the aggregate of its distributions'. */
export interface HrDistributionProjectsTable {
  /** The project's `id`: one sequence for every client. */
  pk: Generated<number>;
  client_id: string;
  name: string;
  paper_configuration: string;
  notifications_delivery: number;
  group_paper_mailing: number;
  restrict_access_to_group: number;
  send_package_to_specific_organization: number;
  user_id: string | null;
  automatic_validation: number;
  has_paper_configuration_recipient_contact_been_used: number;
  package_first_name: string | null;
  package_last_name: string | null;
  package_address: string | null;
  package_address_2: string | null;
  package_address_3: string | null;
  package_postcode: string | null;
  package_city: string | null;
  package_country: string | null;
  package_contact: string | null;
  status: string;
  validated_at: number | null;
  canceled_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A distribution: a PDF (a used-up upload; its blob) split between employees and filed as their documents. */
export interface HrDistributionsTable {
  /** The distribution's `id`: one sequence for every client. */
  pk: Generated<number>;
  client_id: string;
  project_pk: number;
  name: string;
  /** An employee document type: the type of the documents it files. */
  distribution_type_id: string;
  file_id: string;
  filename: string;
  sha256: string;
  size: number;
  status: string;
  /** `distribution_error`, set when the distribution is `error`. */
  error_id: string | null;
  error_code: string | null;
  error_type: string | null;
  error_message: string | null;
  error_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A row of a distribution's report: one employee's pages (or pages that could not be given to anyone). */
export interface HrDistributionItemsTable {
  client_id: string;
  distribution_pk: number;
  /** The row's place in the report (0-based, in the order of the file's pages). */
  position: number;
  /** The identifier found on the pages; null for pages before any. */
  external_id: string | null;
  /** The employee; null for an error row. */
  employee_id: string | null;
  /** JSON array of 1-based page numbers. */
  pages: string;
  /** `pending`, `delivered` or `error`. */
  status: string;
  error_code: string | null;
  error_message: string | null;
  /** The PDF of these pages, once split (`integrating_documents`). */
  sha256: string | null;
  size: number | null;
  /** The employee document made of it (`sending_to_mypeopledoc`). */
  document_id: string | null;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_distribution_projects: HrDistributionProjectsTable;
    hr_distributions: HrDistributionsTable;
    hr_distribution_items: HrDistributionItemsTable;
  }
}
