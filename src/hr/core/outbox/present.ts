import { formatDateTime } from '../../../platform/time.js';
import type { OutboxMail as Mail } from './repository.js';
import type { OutboxMail } from './schemas.js';

export function presentMail(mail: Mail): OutboxMail {
  return {
    id: mail.id,
    kind: mail.kind,
    to_address: mail.toAddress,
    to_name: mail.toName,
    subject: mail.subject,
    body: mail.body,
    related_id: mail.relatedId,
    created_at: formatDateTime(mail.createdAt),
  };
}
