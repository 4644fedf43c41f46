import { randomUUID } from 'node:crypto';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { FieldValidationError, NotFoundError, StateError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/time.js';
import { inboxItemEvents } from '../../documents/inbox/events.js';
import { presentInboxItem } from '../../documents/inbox/present.js';
import type { InboxFile, InboxItemRecord, InboxRepository } from '../../documents/inbox/repository.js';
import type { Audited } from '../../module.js';
import { postProcessActionEvents } from './events.js';
import { presentPostProcessAction } from './present.js';
import type { PostProcessActionRecord, PostProcessActionsRepository } from './repository.js';
import type { PostProcessActionCreate } from './schemas.js';

/** At most this many documents per inbox item (the inbox's own limit); more make several items. */
const FILES_PER_ITEM = 50;

/** The repositories post-process action writes touch. */
export interface PostProcessActionsWork {
  postActions: PostProcessActionsRepository;
}

/** What delivering a process's actions touches, inside the transaction of the write that ends it. */
export interface DeliveryWork {
  postActions: PostProcessActionsRepository;
  inbox: InboxRepository;
}

/**
 * When a process ends (its last task completed): each of its actions sends the process's documents (`files`, the
 * completed files of its tasks) to its inboxes as inbox items (`list` for user inboxes, one `group` item per shared
 * inbox), in the same transaction. Nothing is sent when the process has no documents.
 */
export async function deliverPostProcessActions(
  tx: Audited<DeliveryWork>,
  clientId: HrTenantId,
  processId: string,
  files: readonly InboxFile[],
  at: number,
): Promise<void> {
  const process = await tx.postActions.process(clientId, processId);
  if (!process) return;
  for (const action of await tx.postActions.ofProcess(clientId, processId)) {
    if (action.deliveredAt !== null) continue;
    await tx.postActions.markDelivered(clientId, action.id, at);
    const targets = action.type === 'user_inboxes' ? [null] : action.ids;
    for (let start = 0; start < files.length; start += FILES_PER_ITEM) {
      for (const shared of targets) {
        const id = randomUUID();
        await tx.inbox.insert(
          clientId,
          {
            id,
            title: process.title,
            type: shared === null ? 'list' : 'group',
            description: `Documents of process ${process.reference}.`,
            creatorEmail: null,
            toUsersIds: shared === null ? action.ids : [],
            toInboxId: shared,
            state: 'pending',
            creatorId: null,
            sendNotification: false,
            origin: 'api',
          },
          files.slice(start, start + FILES_PER_ITEM),
          at,
        );
        const item = (await tx.inbox.find(clientId, id)) as InboxItemRecord;
        await tx.audit.record(clientId, inboxItemEvents, 'created', {
          id,
          name: item.title,
          data: presentInboxItem(item),
        });
      }
    }
  }
}

/** `POST /processes/{id}/post_process_action` (reference §3f.1). */
export class PostProcessActionsService {
  constructor(
    private readonly work: UnitOfWork<Tables, Audited<PostProcessActionsWork>>,
    private readonly clock: Clock,
  ) {}

  /**
   * Stores the action on a process that has not ended: `user_inboxes` replaces the previous user_inboxes action,
   * `shared_inboxes` adds one. HR users must exist (422 `not_found` at `ids.<i>`).
   */
  async create(
    clientId: HrTenantId,
    processId: string,
    input: PostProcessActionCreate,
  ): Promise<PostProcessActionRecord> {
    const id = randomUUID();
    return this.work.run(async ({ postActions: repo, audit }) => {
      const process = await repo.process(clientId, processId);
      if (!process) throw new NotFoundError('process', processId);
      if (process.state === 'done') {
        throw new StateError(
          'process_already_done',
          'This process has ended: its documents were already sent; a post-process action is set before its end.',
        );
      }
      const ids = [...new Set(input.ids)];
      if (input.type === 'user_inboxes') {
        const users = await repo.existingUsers(clientId, ids);
        const errors = input.ids.flatMap((userId, i) =>
          users.has(userId) ? [] : [{ field: `ids.${i}`, code: 'not_found', message: 'No HR user has this id.' }],
        );
        if (errors.length) throw new FieldValidationError(errors);
      }
      const previous = (await repo.ofProcess(clientId, processId)).find((a) => a.type === 'user_inboxes');
      const replaced = input.type === 'user_inboxes' && previous !== undefined;
      if (replaced) await repo.delete(clientId, previous.id);
      const action = { id, processId, type: input.type, ids, createdAt: this.clock.now() };
      await repo.insert(clientId, action);
      const record: PostProcessActionRecord = { ...action, deliveredAt: null };
      await audit.record(clientId, postProcessActionEvents, replaced ? 'replaced' : 'created', {
        id,
        name: `${process.reference} ${input.type}`,
        data: presentPostProcessAction(record),
      });
      return record;
    });
  }
}
