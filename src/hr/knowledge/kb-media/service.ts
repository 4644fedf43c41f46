import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { BlobStore } from '../../../platform/blobs/store.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { FieldValidationError, NotFoundError } from '../../../platform/errors.js';
import { sanitizeFilename } from '../../../platform/filenames.js';
import type { Clock } from '../../../platform/time.js';
import type { Audited } from '../../module.js';
import { kbArticleDocumentEvents, kbArticleImageEvents } from './events.js';
import { imageInfo } from './image.js';
import { presentArticleDocument, presentArticleResource } from './present.js';
import type { ArticleDocumentRecord, ArticleResourceRecord, KbMediaRepository } from './repository.js';
import { ARTICLE_DOCUMENT_ID, type ArticleDocument } from './schemas.js';

/** The repositories media writes touch. */
export interface KbMediaWork {
  kbMedia: KbMediaRepository;
}

/** The largest article image (reference §3e.3: "max 20 MB"). */
export const IMAGE_LIMIT_BYTES = 20 * 1024 * 1024;

/**
 * The knowledge base's media (reference §3e.3; docs/hr-api.md, "Images and media files"): the images uploaded for
 * article bodies (checked to be a PNG, JPEG, GIF or WebP by their bytes), served at `/article_resources/{id}`, and
 * the files of the "Media" page, filed by `atrium seed` and served at `/article_documents/{slug}`.
 */
export class KbMediaService {
  constructor(
    private readonly work: UnitOfWork<Tables, Audited<KbMediaWork>>,
    private readonly deps: { blobs: BlobStore; clock: Clock; uploadLimitBytes: number },
  ) {}

  /** The largest image: 20 MB, or the upload limit when it is lower. */
  get imageLimitBytes(): number {
    return Math.min(IMAGE_LIMIT_BYTES, this.deps.uploadLimitBytes);
  }

  /** Stores an image of an article body; 422 `image` `invalid` when the bytes are no image Atrium accepts. */
  async uploadImage(clientId: HrTenantId, filename: string | undefined, bytes: Buffer): Promise<ArticleResourceRecord> {
    const info = imageInfo(bytes);
    if (!info) {
      throw new FieldValidationError([
        { field: 'image', code: 'invalid', message: 'Not a PNG, JPEG, GIF or WebP image (judged by its bytes).' },
      ]);
    }
    const stored = await this.deps.blobs.put(Readable.from([bytes]), {
      limit: this.imageLimitBytes,
      attach: async (trx, blob) => {
        const tx = this.work.on(trx).read;
        const resource: ArticleResourceRecord = {
          id: randomUUID(),
          filename: sanitizeFilename(filename),
          sha256: blob.sha256,
          size: blob.size,
          contentType: info.contentType,
          width: info.width,
          height: info.height,
          createdAt: this.deps.clock.now(),
        };
        await tx.kbMedia.insertResource(clientId, resource);
        await tx.audit.record(clientId, kbArticleImageEvents, 'created', {
          id: resource.id,
          name: resource.filename,
          data: presentArticleResource(resource),
        });
        return resource;
      },
    });
    return stored.attached;
  }

  /** The client's article image; `NotFoundError` otherwise (another client's included). */
  async resource(clientId: HrTenantId, id: string): Promise<ArticleResourceRecord> {
    const found = await this.work.read.kbMedia.findResource(clientId, id);
    if (!found) throw new NotFoundError('article_resource', id);
    return found;
  }

  /** The client's media file; `NotFoundError` otherwise (another client's included). */
  async document(clientId: HrTenantId, id: string): Promise<ArticleDocumentRecord> {
    const found = await this.work.read.kbMedia.findDocument(clientId, id);
    if (!found) throw new NotFoundError('article_document', id);
    return found;
  }

  /**
   * Files a media file under its slug, or replaces the one there (its description and its bytes); the bytes are
   * at most the upload limit. The blob of a replaced file is deleted when nothing else holds it.
   */
  async putDocument(
    clientId: HrTenantId,
    id: string,
    values: ArticleDocument & { filename: string | undefined },
    source: Readable,
  ): Promise<{ document: ArticleDocumentRecord; created: boolean }> {
    if (!ARTICLE_DOCUMENT_ID.test(id)) {
      throw new FieldValidationError([
        { field: 'id', code: 'invalid', message: 'A slug: lower-case letters, digits and single dashes.' },
      ]);
    }
    let previous: ArticleDocumentRecord | undefined;
    const stored = await this.deps.blobs.put(source, {
      limit: this.deps.uploadLimitBytes,
      attach: async (trx, blob) => {
        const tx = this.work.on(trx).read;
        previous = await tx.kbMedia.findDocument(clientId, id);
        const now = this.deps.clock.now();
        const document: ArticleDocumentRecord = {
          id,
          languageCode: values.language_code,
          title: values.title,
          description: values.description ?? null,
          filename: sanitizeFilename(values.filename),
          sha256: blob.sha256,
          size: blob.size,
          contentType: blob.contentType,
          createdAt: previous?.createdAt ?? now,
          updatedAt: now,
        };
        if (previous) await tx.kbMedia.updateDocument(clientId, document);
        else await tx.kbMedia.insertDocument(clientId, document);
        await tx.audit.record(clientId, kbArticleDocumentEvents, previous ? 'updated' : 'created', {
          id,
          name: document.title,
          data: presentArticleDocument(document),
        });
        return document;
      },
    });
    const replaced = previous as ArticleDocumentRecord | undefined;
    if (replaced && replaced.sha256 !== stored.attached.sha256)
      await this.deps.blobs.deleteIfUnreferenced(replaced.sha256);
    return { document: stored.attached, created: replaced === undefined };
  }
}
