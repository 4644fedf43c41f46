import { addToDate, dayOf, formatDate, parseDate } from '../../../platform/time.js';
import type { DocumentTypeSettings } from '../document-types/repository.js';

/** A metadata value of a document, as stored. */
interface MetadataValue {
  code: string;
  value: string;
}

/**
 * The end of a document's retention period by its type's expiry policy (reference §3c.4,
 * `expiry_date_policy_type`), or null when the policy sets none:
 * - `specific_date`: the policy's `date`;
 * - `document_upload_date`: the day the document was uploaded (UTC), plus the policy's years, months and days;
 * - `document_metadata`: the document's value of the policy's date metadata, plus the same; null while the
 *   document has no such value;
 * - `no_limit`, or no policy: null.
 * Employee document types carry no such policy (their `policies` name retention policies that the public API
 * cannot define), so their documents get none.
 */
export function policyExpiryDate(
  settings: DocumentTypeSettings,
  uploadedAt: number,
  metadata: readonly MetadataValue[],
): string | null {
  const options = settings.expiry_date_policy_options ?? {};
  const shift = { years: options.years, months: options.months, days: options.days };
  switch (settings.expiry_date_policy_type) {
    case 'specific_date':
      return options.date ?? null;
    case 'document_upload_date': {
      const day = parseDate(dayOf(uploadedAt));
      return day ? formatDate(addToDate(day, shift)) : null;
    }
    case 'document_metadata': {
      const value = metadata.find((m) => m.code === options.metadata)?.value;
      const day = value === undefined ? undefined : parseDate(value);
      return day ? formatDate(addToDate(day, shift)) : null;
    }
    default:
      return null;
  }
}
