import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import type { BlobStore } from '../../../platform/blobs/store.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import {
  FieldValidationError,
  InvalidRequestError,
  NotFoundError,
  ServiceUnavailableError,
} from '../../../platform/errors.js';
import { sanitizeFilename } from '../../../platform/filenames.js';
import type { PdfWorker } from '../../../platform/pdf/runner.js';
import type { TextOccurrence } from '../../../platform/pdf/text.js';
import type { Renditions } from '../../../platform/renditions/renditions.js';
import { type Clock, wallClock } from '../../../platform/time.js';
import type { AuditTrail } from '../../audit/trail.js';
import type { Audited } from '../../module.js';
import { uploadEvents } from './events.js';
import { presentUpload } from './present.js';
import type { UploadRecord, UploadsRepository } from './repository.js';

export type { UploadRecord } from './repository.js';

export interface UploadsOptions {
  /** Largest file, in bytes (`ATRIUM_UPLOAD_LIMIT`). */
  limitBytes: number;
  /** Lifetime of an unused upload, in seconds (`ATRIUM_UPLOAD_TTL`). */
  ttlSeconds: number;
  /** Period of the expiry sweep, in ms (`ATRIUM_UPLOAD_SWEEP_MS`). */
  sweepMs: number;
  /**
   * Staged bytes older than this are a dead process's (an upload cannot take longer than the request timeout):
   * they are removed at start and by each sweep.
   */
  stagingStaleMs: number;
  /** The clock expiry is judged by (tests move it). */
  clock: Clock;
  /** Counts the pages of PDF uploads (`page_count`); without it, every upload's count is null. */
  pages?: PdfWorker;
  /** Reads the text of PDF uploads (`text_occurrences`); without it, no upload's text can be searched. */
  renditions?: Renditions;
  log?: Logger;
}

/** What `consume` hands over: enough to record a document that owns the bytes. */
export interface ConsumedUpload {
  /** The upload's id (the `file_id` / `upload_id` the client sent). */
  id: string;
  /** The blob's SHA-256: store it in a column listed in `BLOB_REFERENCES`. */
  sha256: string;
  /** Sanitized file name, as the client gave it. */
  filename: string;
  size: number;
  /** Sniffed from the bytes (`application/octet-stream` when unknown). */
  contentType: string;
  /** Pages of a PDF the library could read; null for any other file. */
  pageCount: number | null;
}

export interface SweepResult {
  /** Upload rows deleted. */
  uploads: number;
  /** Blobs deleted because nothing referred to them any more. */
  blobs: number;
}

const SWEEP_BATCH = 200;

/** The content type (sniffed) whose files get a page count. */
const PDF = 'application/pdf';

/** The repositories upload writes touch. */
export interface UploadsWork {
  uploads: UploadsRepository;
}

/**
 * Temporary files (reference §3c.1, step 1): stored as blobs, scoped to one
 * client, deleted after `ttlSeconds` unless something consumed them first.
 */
export class UploadsService {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  private readonly repo: UploadsRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<UploadsWork>>,
    private readonly blobs: BlobStore,
    private readonly options: UploadsOptions,
  ) {
    this.repo = work.read.uploads;
  }

  get limitBytes(): number {
    return this.options.limitBytes;
  }

  get ttlSeconds(): number {
    return this.options.ttlSeconds;
  }

  /**
   * Streams a file into the blob store and records it as the client's upload.
   * Rejects with `BlobTooLargeError` past the limit and `InvalidRequestError`
   * for an empty file; either way nothing is left behind. The client's name
   * is kept as data only, sanitized.
   */
  async create(clientId: HrTenantId, filename: string | undefined, source: Readable): Promise<UploadRecord> {
    const name = sanitizeFilename(filename);
    const id = randomUUID();
    const { attached } = await this.blobs.put(source, {
      limit: this.options.limitBytes,
      attach: async (trx, blob) => {
        if (blob.size === 0) throw new InvalidRequestError('The file is empty.');
        const createdAt = this.options.clock.now();
        const row: UploadRecord = {
          id,
          clientId,
          filename: name,
          sha256: blob.sha256,
          size: blob.size,
          contentType: blob.contentType,
          pageCount: null,
          createdAt,
          expiresAt: createdAt + this.options.ttlSeconds * 1000,
          consumedAt: null,
        };
        // The blob store's transaction: the upload's row commits with its bytes.
        const tx = this.work.on(trx).read;
        await tx.uploads.insert(row);
        // An upload that gets no page count is complete now: its event commits with it. A PDF's waits for its count.
        if (!this.countsPages(row)) await this.record(tx.audit, row);
        return row;
      },
    });
    if (!this.countsPages(attached)) return attached;
    const pageCount = await this.countPages(attached);
    const upload = { ...attached, pageCount };
    await this.work.run(async (tx) => {
      if (pageCount !== null) await tx.uploads.setPageCount(clientId, id, pageCount);
      await this.record(tx.audit, upload);
    });
    return upload;
  }

  /** Whether the upload's pages are counted (a PDF, with a page counter). */
  private countsPages(row: UploadRecord): boolean {
    return this.options.pages !== undefined && row.contentType === PDF;
  }

  /** Records `upload.created`, with the upload as `POST /uploads` answers it (there is no GET of an upload). */
  private async record(audit: AuditTrail, row: UploadRecord): Promise<void> {
    await audit.record(row.clientId, uploadEvents, 'created', {
      id: row.id,
      name: row.filename,
      data: presentUpload(row, this.options.ttlSeconds),
    });
  }

  /**
   * The pages of a stored PDF upload, read back from the store and counted in a worker thread (bounded in time
   * and memory: platform/pdf/runner.ts); null for any other file, and for a PDF the library cannot read. The
   * upload's id is not yet known to the client, so nothing can consume it before the count is recorded.
   */
  private async countPages(row: UploadRecord): Promise<number | null> {
    const pages = this.options.pages;
    if (!pages || !this.countsPages(row)) return null;
    const bytes = new Uint8Array(row.size);
    let at = 0;
    try {
      for await (const chunk of await this.blobs.read(row.sha256)) {
        const part = chunk as Buffer;
        if (at + part.length > bytes.length) return null;
        bytes.set(part, at);
        at += part.length;
      }
    } catch (err) {
      // The upload stands without a count: reading it back failed (the store logs a checksum mismatch).
      this.options.log?.warn({ err, upload: row.id }, 'reading a PDF upload back to count its pages failed');
      return null;
    }
    return at === bytes.length ? pages.count(bytes) : null;
  }

  /** The client's upload (consumed or not, until it expires); `NotFoundError` otherwise, another client's included. */
  async get(clientId: HrTenantId, id: string): Promise<UploadRecord> {
    const row = await this.repo.find(clientId, id);
    if (!row || row.expiresAt <= this.options.clock.now()) throw new NotFoundError('Upload', id);
    return row;
  }

  /**
   * Where a keyword appears in a PDF upload (consumed or not, until it expires): each place, in PDF points from
   * the page's bottom-left corner. 404 for an unknown upload (another client's included); 422 for a file that is not
   * a readable PDF.
   */
  async textOccurrences(clientId: HrTenantId, id: string, keyword: string): Promise<TextOccurrence[]> {
    const upload = await this.get(clientId, id);
    if (!this.options.renditions) throw new ServiceUnavailableError('Reading the text of PDFs is not available.');
    return this.options.renditions.findText({ sha256: upload.sha256, contentType: upload.contentType }, keyword);
  }

  /**
   * Takes an upload to make something lasting of it (a document, an
   * attachment). Call it **inside the transaction that records the new
   * reference to the bytes** (pass the uploads repository of that unit of work as `uploads`), and store the
   * returned `sha256` in a column listed in `BLOB_REFERENCES`:
   *
   * - the upload is marked consumed in the caller's transaction: from the commit on it no longer
   *   holds the blob (the caller's row does), the sweeper leaves the blob
   *   alone, and the same id cannot be consumed again;
   * - if the caller's transaction rolls back, the upload is unconsumed again
   *   and still usable;
   * - a concurrent consume of the same id waits for that transaction and then fails.
   *
   * Failures, with no change: an unknown id, another client's upload, an
   * expired upload or one already consumed. With `options.field` (the payload
   * path of the id, such as `uploaded_file.file_id`) they are a
   * `FieldValidationError` on that field with code `not_found`, `expired` or
   * `already_used` (another client's upload is `not_found`, like an unknown
   * one); without it, a `NotFoundError`.
   */
  async consume(
    repo: UploadsRepository,
    clientId: HrTenantId,
    fileId: string,
    options: { field?: string } = {},
  ): Promise<ConsumedUpload> {
    const at = this.options.clock.now();
    const row = await repo.consume(clientId, fileId, at);
    if (row) {
      return {
        id: row.id,
        sha256: row.sha256,
        filename: row.filename,
        size: row.size,
        contentType: row.contentType,
        pageCount: row.pageCount,
      };
    }
    if (options.field === undefined) throw new NotFoundError('Upload', fileId);
    const existing = await repo.find(clientId, fileId);
    const field = options.field;
    if (!existing) {
      throw new FieldValidationError([{ field, code: 'not_found', message: 'No upload has this id.' }]);
    }
    if (existing.consumedAt !== null) {
      throw new FieldValidationError([{ field, code: 'already_used', message: 'This upload has already been used.' }]);
    }
    throw new FieldValidationError([
      { field, code: 'expired', message: 'This upload has expired; upload the file again.' },
    ]);
  }

  /**
   * Deletes every expired upload. An unconsumed one takes its blob with it
   * unless something else refers to the same bytes; a consumed one is only
   * forgotten (its blob belongs to what consumed it). Also removes staged
   * bytes left by a process that died mid-upload.
   */
  async sweep(): Promise<SweepResult> {
    const at = this.options.clock.now();
    const result: SweepResult = { uploads: 0, blobs: 0 };
    for (;;) {
      const batch = await this.repo.expired(at, SWEEP_BATCH);
      for (const upload of batch) {
        const deleted = await this.repo.deleteExpired(upload.id, at);
        if (!deleted) continue;
        result.uploads++;
        if (deleted.consumedAt === null && (await this.blobs.deleteIfUnreferenced(deleted.sha256))) result.blobs++;
      }
      if (batch.length < SWEEP_BATCH) break;
    }
    await this.blobs.sweepStaging(wallClock() - this.options.stagingStaleMs);
    return result;
  }

  /**
   * Removes what a killed process left staged (`.part` files, staged chunks), then starts the periodic sweep (an
   * unref'd timer: it never keeps the process alive).
   */
  async start(): Promise<void> {
    if (this.timer) return;
    const removed = await this.blobs
      .sweepStaging(wallClock() - this.options.stagingStaleMs)
      .catch((err: unknown) => this.options.log?.warn({ err }, 'removing stale staged uploads failed'));
    if (removed) this.options.log?.info({ removed }, 'staged uploads left by a stopped process removed');
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.sweep()
        .then((r) => {
          if (r.uploads > 0) this.options.log?.info({ ...r }, 'expired uploads deleted');
        })
        .catch((err: unknown) => this.options.log?.warn({ err }, 'upload sweep failed'))
        .finally(() => {
          this.running = undefined;
        });
    }, this.options.sweepMs);
    this.timer.unref();
  }

  /**
   * Stops the sweep, waiting for one in progress (so the database can close after), and the page counter's worker
   * (a process that has counted a PDF would otherwise stay up until the worker's idle time has passed).
   */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
    await this.options.pages?.stop();
  }
}
