import { formatDateTime } from '../../../platform/time.js';
import type { SignatureProcess, SignatureType, Signer } from './schemas.js';
import { CANCELABLE_STATES, DELETABLE_STATES } from './states.js';
import type { ProcessView, SignerView } from './views.js';

/** How a signer's answer gets its `signing_url`: made from the request's origin, or none (audit events). */
export interface NoLinks {
  urlOf(view: SignerView): string | null;
}

/** A signature process on the wire (reference §5.4, `SignatureProcessFull`). */
export function presentProcess(view: ProcessView): SignatureProcess {
  const p = view.process;
  return {
    id: p.id,
    signature_type_id: p.signatureTypeId,
    title: p.title,
    reason: p.reason,
    name: p.filename,
    location: p.location,
    expiry_date: p.expiryDate,
    notify_on_signature: p.notifyOnSignature,
    notify_on_refusal: p.notifyOnRefusal,
    document_type_id: p.documentTypeId,
    document_metadata: p.documentMetadata,
    document_date: p.documentDate,
    cancellation_comment: p.cancellationComment,
    file_number: p.fileNumber,
    is_cancelable: CANCELABLE_STATES.includes(view.state),
    is_deletable: DELETABLE_STATES.includes(view.state),
    message: p.message,
    notify_employee_ids: p.notifyEmployeeIds,
    external_id: p.externalId,
    auto_send: p.autoSend,
    callback_url: p.callbackUrl,
    state: view.state as SignatureProcess['state'],
    sender: view.sender
      ? { id: view.sender.id, first_name: view.sender.firstName, last_name: view.sender.lastName }
      : null,
    signers: view.signers.map((s) => ({
      id: s.id,
      first_name: s.firstName,
      last_name: s.lastName,
      state: s.state as Signer['state'],
    })),
    document_organizations: view.organizations,
    created_at: formatDateTime(p.createdAt),
    updated_at: formatDateTime(p.updatedAt),
  };
}

/** A signer on the wire (`SignerFull`): its link only while it is their turn to sign. */
export function presentSigner(view: SignerView, links: NoLinks): Signer {
  const s = view.signer;
  return {
    id: s.id,
    signature_process_id: s.processId,
    first_name: s.firstName,
    last_name: s.lastName,
    type: s.type as Signer['type'],
    signature_positions: s.signaturePositions as Signer['signature_positions'],
    user_id: s.userId,
    employee_id: s.employeeId,
    language: s.language,
    email_address: s.emailAddress,
    mobile_phone_number: s.mobilePhoneNumber,
    signing_order: s.signingOrder,
    access_code: null,
    sms_notification: s.smsNotification,
    two_factor_auth: s.twoFactorAuth,
    message: s.message,
    send_signed_document: s.sendSignedDocument,
    signing_url:
      view.processState === 'signing' && s.state !== 'signed' && s.state !== 'rejected' ? links.urlOf(view) : null,
    signed_at: s.signedAt === null ? null : formatDateTime(s.signedAt),
    state: s.state as Signer['state'],
  };
}

export function presentSignatureType(type: SignatureType): SignatureType {
  return type;
}
