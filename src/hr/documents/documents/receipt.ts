import type { DocumentView } from './repository.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** The characters XML 1.0 forbids (C0 controls but tab, line feed and carriage return; U+FFFE, U+FFFF). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters to remove
const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

/** Text as XML character data or an attribute value: escaped, without the characters XML 1.0 forbids. */
function xml(value: string): string {
  return value.replace(FORBIDDEN, '').replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A document's receipt (reference: `GET …/receipt`, `application/xml`; its content is not described there, so this
 * is Atrium's, docs/hr-api.md "Duplicates and receipts"): what the document is, the checksum of its bytes, and when
 * the receipt was issued.
 */
export function presentReceipt(view: DocumentView, issuedAt: number, issuer: string): string {
  const { row } = view;
  const element = (name: string, value: string | number | null) =>
    value === null ? `    <${name}/>` : `    <${name}>${xml(String(value))}</${name}>`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<receipt xmlns="urn:atrium:document-receipt:1" issued_at="${iso(issuedAt)}" issuer="${xml(issuer)}">`,
    `  <document id="${xml(row.id)}" kind="${row.kind}">`,
    element('document_type_id', row.documentTypeId),
    element('title', row.title),
    element('name', row.filename),
    element('content_type', row.contentType),
    element('size', row.size),
    element('sha256', row.sha256),
    element('page_count', row.pageCount),
    element('date', row.date),
    element('external_reference', row.externalReference),
    ...(row.kind === 'employee'
      ? [element('employee_id', row.employeeId), element('employee_external_id', row.employeeExternalId)]
      : []),
    '    <organization_ids>',
    ...view.organizationIds.map((id) => `      <organization_id>${xml(id)}</organization_id>`),
    '    </organization_ids>',
    element('created_at', iso(row.createdAt)),
    element('expiration_date', row.expirationDate),
    '  </document>',
    '</receipt>',
    '',
  ];
  return lines.join('\n');
}
