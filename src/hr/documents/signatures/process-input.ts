/**
 * A signature process's input, as `POST` and `PUT` / `PATCH` send it: checked and turned into the process's
 * attributes, and a process turned back into an update's input (to merge a PATCH over, and to compare).
 */

import type { HrTenantId } from '../../../platform/db/tenant.js';
import { type FieldError, FieldValidationError } from '../../../platform/errors.js';
import { type Clock, dayOf, parseDate } from '../../../platform/time.js';
import type { Audited } from '../../module.js';
import type { SignaturesWork } from './records.js';
import type { MetadataValue, ProcessAttributes, ProcessRecord } from './repository.js';
import type { SignatureProcessCreate, SignatureProcessPut } from './schemas.js';
import { findSignatureType } from './types.js';

export async function processAttributes(
  tx: Audited<SignaturesWork>,
  clock: Clock,
  clientId: HrTenantId,
  input: SignatureProcessPut | SignatureProcessCreate,
  current?: ProcessRecord,
): Promise<{ attrs: ProcessAttributes; organizationIds?: string[] }> {
  const errors: FieldError[] = [];
  if (!findSignatureType(input.signature_type_id)) {
    errors.push({ field: 'signature_type_id', code: 'not_found', message: 'No signature type has this id.' });
  }
  const attrs: ProcessAttributes = {
    signatureTypeId: input.signature_type_id,
    title: input.title,
    reason: input.reason,
    location: input.location ?? 'N/A',
    expiryDate: input.expiry_date ?? null,
    notifyOnSignature: input.notify_on_signature ?? false,
    notifyOnRefusal: input.notify_on_refusal ?? true,
    documentTypeId: input.document_type_id ?? null,
    documentMetadata: (input.document_metadata ?? []) as MetadataValue[],
    documentDate: input.document_date ?? null,
    cancellationComment: input.cancellation_comment ?? null,
    message: input.message ?? null,
    notifyEmployeeIds: input.notify_employee_ids ?? [],
    externalId: input.external_id ?? null,
    autoSend: input.auto_send ?? 'false',
    callbackUrl: input.callback_url ?? null,
    senderId: input.sender_id ?? null,
  };
  if (attrs.expiryDate !== null && attrs.expiryDate !== current?.expiryDate) {
    const day = parseDate(attrs.expiryDate);
    if (!day) {
      errors.push({ field: 'expiry_date', code: 'invalid', message: 'Must be a date: YYYY-MM-DD.' });
    } else if (attrs.expiryDate <= dayOf(clock.now())) {
      errors.push({ field: 'expiry_date', code: 'invalid', message: 'Must be after today.' });
    }
  }
  if (attrs.documentTypeId !== null && !(await tx.documents.documentType(clientId, 'employee', attrs.documentTypeId))) {
    errors.push({ field: 'document_type_id', code: 'not_found', message: 'No employee document type has this id.' });
  }
  if (attrs.senderId !== null && !(await tx.signatures.existing(clientId, 'hr_users', [attrs.senderId])).size) {
    errors.push({ field: 'sender_id', code: 'not_found', message: 'No HR user has this id.' });
  }
  const employees = await tx.signatures.existing(clientId, 'hr_employees', attrs.notifyEmployeeIds);
  attrs.notifyEmployeeIds.forEach((id, i) => {
    if (!employees.has(id)) {
      errors.push({ field: `notify_employee_ids[${i}]`, code: 'not_found', message: 'No employee has this id.' });
    }
  });
  let organizationIds: string[] | undefined;
  if (input.document_organization_ids !== undefined) {
    organizationIds = [...new Set(input.document_organization_ids)];
    const found = await tx.signatures.existing(clientId, 'hr_organizations', organizationIds);
    input.document_organization_ids.forEach((id, i) => {
      if (!found.has(id)) {
        errors.push({
          field: `document_organization_ids[${i}]`,
          code: 'not_found',
          message: 'No organization has this id.',
        });
      }
    });
  }
  if (errors.length > 0) throw new FieldValidationError(errors);
  return organizationIds ? { attrs, organizationIds } : { attrs };
}

/** The process as an update payload, to merge a PATCH over and to compare. */
export function processInput(p: ProcessRecord): SignatureProcessPut {
  return {
    signature_type_id: p.signatureTypeId,
    title: p.title,
    reason: p.reason,
    location: p.location,
    expiry_date: p.expiryDate,
    notify_on_signature: p.notifyOnSignature,
    notify_on_refusal: p.notifyOnRefusal,
    document_type_id: p.documentTypeId,
    document_metadata: p.documentMetadata,
    document_date: p.documentDate,
    cancellation_comment: p.cancellationComment,
    message: p.message,
    notify_employee_ids: p.notifyEmployeeIds,
    external_id: p.externalId,
    auto_send: p.autoSend as 'true' | 'false',
    callback_url: p.callbackUrl,
    sender_id: p.senderId,
  };
}
