/** A request's comments: their pages, a new comment (with its attachments), and the snapshot a request's PDF shows. */
import { randomUUID } from 'node:crypto';
import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { type FieldError, FieldValidationError, ForbiddenError, NotFoundError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/time.js';
import type { UploadsService } from '../../core/uploads/service.js';
import type { Audited } from '../../module.js';
import { namedPerson } from './actors.js';
import { consumeAll } from './consume.js';
import { requestCommentEvents } from './events.js';
import { type CommentView, presentComment, type RequestView } from './present.js';
import type { CommentRecord, RequestsRepository } from './repository.js';
import type { CommentCreate } from './schemas.js';
import { type RequestsWork, viewOf } from './views.js';

/** The comments a request's PDF shows at most: the newest, oldest first. */
export const MAX_SNAPSHOT_COMMENTS = 1_000;

/** The comments of People Assist requests; a comment by a user or the request's employee. */
export class RequestCommentsService {
  private readonly repo: RequestsRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<RequestsWork>>,
    private readonly uploads: UploadsService,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.requests;
  }

  /** A page of a request's comments, newest first, each with its attachments and creator. */
  async comments(clientId: HrTenantId, requestId: string, request: PageRequest): Promise<Page<CommentView>> {
    await viewOf(this.repo, clientId, requestId, false);
    const page = await this.repo.commentsPage(clientId, requestId, request);
    const rows = page.items;
    const ids = new Set(rows.map((r) => r.id));
    const files = (await this.repo.files(clientId, [requestId])).filter((f) => f.commentId && ids.has(f.commentId));
    const people = await this.repo.people(
      clientId,
      rows.flatMap((r) => (r.creatorId ? [r.creatorId] : [])),
    );
    return {
      ...page,
      items: rows.map((row) => ({ row, files: files.filter((f) => f.commentId === row.id), people })),
    };
  }

  /**
   * A request with its comments, oldest first (the newest `MAX_SNAPSHOT_COMMENTS` of them): what its PDF shows.
   */
  async snapshot(clientId: HrTenantId, requestId: string): Promise<{ request: RequestView; comments: CommentView[] }> {
    const request = await viewOf(this.repo, clientId, requestId, true);
    const page = await this.comments(clientId, requestId, { limit: MAX_SNAPSHOT_COMMENTS, sort: [], at: {} });
    return {
      request,
      comments: [...page.items].sort((a, b) => a.row.createdAt - b.row.createdAt || a.row.pk - b.row.pk),
    };
  }

  /** POST a comment: by a user or the request's employee; its attachments become request attachments. */
  async comment(clientId: HrTenantId, requestId: string, input: CommentCreate): Promise<CommentView> {
    const request = await this.repo.find(clientId, requestId);
    if (!request) throw new NotFoundError('request', requestId);
    const errors: FieldError[] = [];
    if (!input.creator_id && !input.creator_external_id) {
      errors.push({ field: 'creator_id', code: 'required', message: 'Give creator_id or creator_external_id.' });
    }
    const creator = await namedPerson(
      this.repo,
      clientId,
      'creator',
      input.creator_id,
      input.creator_external_id,
      ['user', 'employee'],
      errors,
    );
    if (creator?.kind === 'employee' && creator.id !== request.employeeId) {
      errors.push({
        field: 'creator_id',
        code: 'forbidden',
        message: 'Only the request’s own employee may comment on it.',
      });
    }
    const internal = input.is_internal === true;
    if (creator?.kind === 'employee' && internal) {
      errors.push({
        field: 'is_internal',
        code: 'invalid_value',
        message: 'An employee cannot write an internal comment.',
      });
    }
    if (input.content.trim() === '' && (input.attachment_upload_ids ?? []).length === 0) {
      errors.push({ field: 'content', code: 'required', message: 'A comment needs content or attachments.' });
    }
    if (errors.length) throw new FieldValidationError(errors);
    const id = randomUUID();
    return this.work.run(async (tx) => {
      const repo = tx.requests;
      const locked = await repo.lock(clientId, requestId);
      if (!locked) throw new NotFoundError('request', requestId);
      if (locked.status === 'archived') {
        throw new ForbiddenError('request_read_only', 'The request is archived; it takes no more comments.');
      }
      const at = this.clock.now();
      await repo.insertComment({
        clientId,
        id,
        requestId,
        creatorId: creator?.id ?? null,
        creatorKind: creator?.kind ?? null,
        content: input.content,
        isInternal: internal,
        isInformative: false,
        commentSource: 'user',
        createdAt: at,
      });
      const consumed = await consumeAll(
        this.uploads,
        clientId,
        tx,
        requestId,
        [],
        input.attachment_upload_ids ?? [],
        at,
        id,
      );
      await repo.bumpCounters(
        clientId,
        requestId,
        { public: internal ? 0 : 1, internal: internal ? 1 : 0, attachments: consumed.attachments },
        at,
      );
      if (creator?.kind === 'user') await repo.update(clientId, requestId, { readByEmployee: false });
      const row = (await repo.findComment(clientId, requestId, id)) as CommentRecord;
      const files = (await repo.files(clientId, [requestId])).filter((f) => f.commentId === id);
      const view: CommentView = { row, files, people: await repo.people(clientId, creator ? [creator.id] : []) };
      // As the comment list (`GET /requests/{id}/comments`) shows it without `embed`; a comment has no name.
      await tx.audit.record(clientId, requestCommentEvents, 'created', {
        id,
        name: null,
        data: presentComment(view, false),
      });
      return view;
    });
  }
}
