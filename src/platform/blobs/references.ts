import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Tables } from '../db/schema.js';

/** A column whose values are blob checksums: while a row holds one, the blob is kept. */
export interface BlobReference {
  /** The table holding the reference. */
  table: keyof Tables & string;
  /** The column holding the blob's SHA-256 (lower-case hex). */
  column: string;
  /**
   * When set, a row counts only while this column is null. Uploads use it: once
   * consumed, an upload no longer holds its blob; the object that consumed it does.
   */
  onlyWhileNull?: string;
}

/**
 * THE list of every place that refers to a blob. `BlobStore.deleteIfUnreferenced`
 * deletes a blob only when none of these rows refers to it, so a table that
 * stores a blob checksum without being listed here will see its files deleted
 * under it.
 *
 * To add one (for example the employee and company documents): add the table's
 * entry here, index its column, and call `deleteIfUnreferenced(sha256)` after
 * deleting or changing a row that held a blob.
 */
export const BLOB_REFERENCES: readonly BlobReference[] = [
  { table: 'hr_uploads', column: 'sha256', onlyWhileNull: 'consumed_at' },
  { table: 'hr_documents', column: 'sha256' },
  { table: 'hr_task_templates', column: 'sha256' },
  { table: 'hr_task_files', column: 'sha256' },
  { table: 'hr_pdf_templates', column: 'sha256' },
  { table: 'pa_request_files', column: 'sha256' },
  { table: 'hr_dataset_imports', column: 'sha256' },
  { table: 'hr_imports', column: 'sha256' },
  { table: 'hr_signature_processes', column: 'sha256' },
  { table: 'hr_signature_processes', column: 'signed_sha256' },
  { table: 'hr_inbox_item_files', column: 'sha256' },
  // A distribution's file, and the PDF of each employee's pages (documents/distributions).
  { table: 'hr_distributions', column: 'sha256' },
  { table: 'hr_distribution_items', column: 'sha256' },
  // Document generation: a template version's document, a generated one, a campaign's result and each row's
  // document; and the PDF each is laid out as for its previews (hr/document-generation).
  { table: 'hr_docgen_template_versions', column: 'sha256' },
  { table: 'hr_docgen_template_versions', column: 'pdf_sha256' },
  { table: 'hr_docgen_generations', column: 'sha256' },
  { table: 'hr_docgen_generations', column: 'pdf_sha256' },
  { table: 'hr_docgen_campaigns', column: 'sha256' },
  { table: 'hr_docgen_campaign_rows', column: 'sha256' },
  // The knowledge base's media: the images of article bodies and the "Media" page's files (knowledge/kb-media).
  { table: 'hr_kb_article_resources', column: 'sha256' },
  { table: 'hr_kb_article_documents', column: 'sha256' },
  // The cache of previews (platform/renditions): the PNG, while its source is stored.
  { table: 'renditions', column: 'sha256' },
  // A scanned file holds its bytes until its verdict; a clean one's upload holds them after.
  { table: 'hr_scans', column: 'sha256', onlyWhileNull: 'scanned_at' },
  // A tenant snapshot keeps the files of its rows (admin/snapshots, docs/admin.md "Snapshots").
  { table: 'tenant_snapshot_files', column: 'sha256' },
];

/**
 * Whether any listed row refers to the blob, in one statement (one snapshot:
 * a writer that moves a reference from one table to another in a transaction
 * is seen either before or after, never half-way).
 */
export async function isReferenced(
  db: Db,
  sha256: string,
  references: readonly BlobReference[] = BLOB_REFERENCES,
): Promise<boolean> {
  if (references.length === 0) return false;
  const checks = references.map(
    (r) =>
      sql`exists (select 1 from ${sql.table(r.table)} where ${sql.ref(r.column)} = ${sha256}${
        r.onlyWhileNull ? sql` and ${sql.ref(r.onlyWhileNull)} is null` : sql``
      })`,
  );
  const result = await sql<{
    referenced: number | boolean;
  }>`select (${sql.join(checks, sql` or `)}) as referenced`.execute(db);
  const value = result.rows[0]?.referenced;
  return value === true || value === 1;
}
