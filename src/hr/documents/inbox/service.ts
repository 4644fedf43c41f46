import { randomUUID } from 'node:crypto';
import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { type FieldError, FieldValidationError, NotFoundError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/time.js';
import type { OutboxRepository } from '../../core/outbox/repository.js';
import type { UploadsRepository } from '../../core/uploads/repository.js';
import type { UploadsService } from '../../core/uploads/service.js';
import type { Audited } from '../../module.js';
import { inboxItemEvents } from './events.js';
import { presentInboxItem } from './present.js';
import type { InboxFile, InboxFilter, InboxItemRecord, InboxRepository } from './repository.js';
import type { InboxItemCreate } from './schemas.js';

/** The repositories inbox writes touch. */
export interface InboxWork {
  inbox: InboxRepository;
  uploads: UploadsRepository;
  outbox: OutboxRepository;
}

/**
 * The Document manager's inbox (reference §3c.7; docs/hr-api.md, "Inbox"): documents sent to a person, a list of
 * HR users or a shared inbox, to be processed in the web application. The client API lists, creates and reads
 * items; nothing in it processes them, so an item stays `pending`.
 */
export class InboxService {
  constructor(
    private readonly work: UnitOfWork<Tables, Audited<InboxWork>>,
    private readonly uploads: UploadsService,
    private readonly clock: Clock,
  ) {}

  list(clientId: HrTenantId, filter: InboxFilter, request: PageRequest): Promise<Page<InboxItemRecord>> {
    return this.work.read.inbox.page(clientId, filter, request);
  }

  async get(clientId: HrTenantId, id: string): Promise<InboxItemRecord> {
    const item = await this.work.read.inbox.find(clientId, id);
    if (!item) throw new NotFoundError('inbox item', id);
    return item;
  }

  async create(clientId: HrTenantId, input: InboxItemCreate): Promise<InboxItemRecord> {
    const id = randomUUID();
    return this.work.run(async (tx) => {
      const errors: FieldError[] = [];
      const toUsers = [...new Set(input.to_users_ids ?? [])];
      const users = await tx.inbox.users(clientId, toUsers);
      if (input.type === 'list' && toUsers.length === 0) {
        errors.push({ field: 'to_users_ids', code: 'required', message: 'A list item goes to at least one HR user.' });
      }
      (input.to_users_ids ?? []).forEach((userId, i) => {
        if (!users.has(userId)) {
          errors.push({ field: `to_users_ids[${i}]`, code: 'not_found', message: 'No HR user has this id.' });
        }
      });
      if (input.type === 'group' && !input.to_inbox_id) {
        errors.push({ field: 'to_inbox_id', code: 'required', message: 'A group item goes to a shared inbox.' });
      }
      if (input.options.send_confirmation_email_to_creator && !input.creator_email) {
        errors.push({
          field: 'creator_email',
          code: 'required',
          message: 'A confirmation needs the creator’s e-mail address.',
        });
      }
      if (errors.length > 0) throw new FieldValidationError(errors);
      const files: InboxFile[] = [];
      for (const [i, file] of input.uploaded_files.entries()) {
        const upload = await this.uploads.consume(tx.uploads, clientId, file.file_id, {
          field: `uploaded_files[${i}].file_id`,
        });
        files.push({
          filename: file.filename,
          sha256: upload.sha256,
          size: upload.size,
          contentType: upload.contentType,
        });
      }
      const at = this.clock.now();
      const sendNotification = input.send_notification !== false;
      await tx.inbox.insert(
        clientId,
        {
          id,
          title: input.title,
          type: input.type,
          description: input.description ?? null,
          creatorEmail: input.creator_email ?? null,
          toUsersIds: toUsers,
          toInboxId: input.to_inbox_id ?? null,
          state: 'pending',
          creatorId: null,
          sendNotification,
          origin: 'api',
        },
        files,
        at,
      );
      const mails = [];
      if (sendNotification) {
        for (const userId of toUsers) {
          const user = users.get(userId) as { name: string; email: string };
          mails.push({
            id: randomUUID(),
            kind: 'inbox.notification',
            toAddress: user.email,
            toName: user.name,
            subject: `New in your inbox: ${input.title}`,
            body: `Hello ${user.name},\n\n"${input.title}" is in your inbox with ${files.length} document(s): ${files
              .map((f) => f.filename)
              .join(', ')}.`,
            relatedId: id,
          });
        }
      }
      if (input.options.send_confirmation_email_to_creator && input.creator_email) {
        mails.push({
          id: randomUUID(),
          kind: 'inbox.confirmation',
          toAddress: input.creator_email,
          toName: input.creator_email,
          subject: `Sent: ${input.title}`,
          body: `"${input.title}" was sent with ${files.length} document(s).`,
          relatedId: id,
        });
      }
      await tx.outbox.insert(clientId, mails, at);
      const item = (await tx.inbox.find(clientId, id)) as InboxItemRecord;
      await tx.audit.record(clientId, inboxItemEvents, 'created', {
        id,
        name: item.title,
        data: presentInboxItem(item),
      });
      return item;
    });
  }
}
