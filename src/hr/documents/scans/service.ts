import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import type { BlobStore } from '../../../platform/blobs/store.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { InvalidRequestError, NotFoundError } from '../../../platform/errors.js';
import { sanitizeFilename } from '../../../platform/filenames.js';
import { enqueue, type Job, PermanentJobError, type QueueOptions } from '../../../platform/jobs/index.js';
import type { PdfWorker } from '../../../platform/pdf/runner.js';
import type { Clock } from '../../../platform/time.js';
import { afterWork } from '../../audit/actor.js';
import { uploadEvents } from '../../core/uploads/events.js';
import { presentUpload } from '../../core/uploads/present.js';
import type { UploadRecord, UploadsRepository } from '../../core/uploads/repository.js';
import type { Audited } from '../../module.js';
import { presentScanStatus } from './present.js';
import type { ScanRecord, ScanSource, ScanStatus, ScansRepository } from './repository.js';

/** The repositories scan writes touch. */
export interface ScansWork {
  scans: ScansRepository;
  uploads: UploadsRepository;
}

export const SCAN_QUEUE = 'file_scan';
export const SCAN_CALLBACK_QUEUE = 'file_scan_callback';

/**
 * The EICAR anti-virus test file (https://www.eicar.org): the 68 bytes every antivirus reports. A file that starts
 * with them is `infected`; every other file is `clean` (docs/hr-api.md, "Antivirus scans").
 */
export const EICAR = Buffer.from('X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*', 'latin1');

/** A synchronous upload scans in the request; its job only finishes a scan the request left pending (a crash). */
const SYNC_SAFETY_NET_MS = 60_000;

const PDF = 'application/pdf';

type Verdict = { status: Exclude<ScanStatus, 'pending'>; message: string };

const CLEAN: Verdict = { status: 'clean', message: 'No threat found: the file is an upload.' };
const INFECTED: Verdict = {
  status: 'infected',
  message: 'Threat found (EICAR-Test-File): no upload was made and the file was deleted.',
};
const FAILED: Verdict = {
  status: 'failed',
  message: 'The file could not be read back to scan it: no upload was made.',
};

/** What the client asked of a scanned upload. */
export interface ScanRequest {
  source: ScanSource;
  /** The upload's lifetime, in seconds. */
  retentionSeconds: number;
  /** Where the verdict is POSTed; null for nowhere. */
  callbackUrl: string | null;
  /** In the background (`pending` at first), or in the request. */
  background: boolean;
}

/** A scan, with the page count of the upload a clean file became. */
export interface ScanResult {
  scan: ScanRecord;
  pageCount: number | null;
}

interface ScanJob {
  clientId: HrTenantId;
  scanId: string;
}

interface CallbackJob {
  clientId: HrTenantId;
  scanId: string;
  url: string;
  body: string;
}

/**
 * Antivirus-scanned uploads (reference §3c.1; docs/hr-api.md, "Antivirus scans"). The scan is simulated but real:
 * the stored bytes are read back and a file that starts with the EICAR test string is `infected`, anything else
 * `clean`. Only a clean file becomes an upload (its `file_id`), usable by other calls; an infected one never does,
 * and its bytes are deleted. Every scan is a job of the runner, queued with the scan's row: an asynchronous one
 * runs there (`pending` until then), a synchronous one runs in the request and its job is a safety net. The verdict
 * is POSTed to the scan's callback URL, as a job too.
 */
export class ScansService {
  constructor(
    private readonly work: UnitOfWork<Tables, Audited<ScansWork>>,
    private readonly deps: {
      blobs: BlobStore;
      clock: Clock;
      wakeJobs: () => void;
      /** Largest file, in bytes (`ATRIUM_UPLOAD_LIMIT`). */
      limitBytes: number;
      /** Lifetime of an upload, in seconds (`ATRIUM_UPLOAD_TTL`): the one of `/document/upload*`. */
      uploadTtlSeconds: number;
      /** Counts the pages of clean PDFs; without it, every count is null. */
      pages?: PdfWorker;
      /** How callbacks are sent (the webhooks' settings). */
      callbacks: {
        send(url: string, body: string): Promise<{ ok: boolean; error: string | null; refused?: true }>;
        retryForMs: number;
      };
      log?: Logger;
    },
  ) {}

  get limitBytes(): number {
    return this.deps.limitBytes;
  }

  get uploadTtlSeconds(): number {
    return this.deps.uploadTtlSeconds;
  }

  /**
   * Streams a file into the blob store, records its scan (`pending`) and the scan's job in the same transaction,
   * then scans it now unless `request.background`. Rejects with `BlobTooLargeError` past the limit and
   * `InvalidRequestError` for an empty file; either way nothing is left behind.
   */
  async upload(
    clientId: HrTenantId,
    filename: string | undefined,
    source: Readable,
    request: ScanRequest,
  ): Promise<ScanResult> {
    const id = randomUUID();
    const { attached: scan } = await this.deps.blobs.put(source, {
      limit: this.deps.limitBytes,
      attach: async (trx, blob) => {
        if (blob.size === 0) throw new InvalidRequestError('The file is empty.');
        const scan: ScanRecord = {
          id,
          fileId: randomUUID(),
          source: request.source,
          filename: sanitizeFilename(filename),
          sha256: blob.sha256,
          size: blob.size,
          contentType: blob.contentType,
          status: 'pending',
          message: null,
          retentionPeriod: request.retentionSeconds,
          callbackUrl: request.callbackUrl,
          createdAt: this.deps.clock.now(),
          scannedAt: null,
        };
        // The blob store's transaction: the scan's row (which holds the bytes) and its job commit with the bytes.
        const tx = this.work.on(trx).read;
        await tx.scans.insert(clientId, scan);
        const wall = this.deps.clock.wall();
        await enqueue(
          tx.scans.db,
          {
            queue: SCAN_QUEUE,
            tenant: clientId,
            payload: { clientId, scanId: id } satisfies ScanJob,
            runAt: request.background ? wall : wall + SYNC_SAFETY_NET_MS,
          },
          wall,
        );
        return scan;
      },
    });
    if (request.background) {
      afterWork(this.deps.wakeJobs);
      return { scan, pageCount: null };
    }
    await this.scan({ clientId, scanId: id });
    return this.result(clientId, id);
  }

  /** The client's scan; `NotFoundError` otherwise (another client's included). */
  async get(clientId: HrTenantId, id: string): Promise<ScanRecord> {
    const scan = await this.work.read.scans.find(clientId, id);
    if (!scan) throw new NotFoundError('scan', id);
    return scan;
  }

  private async result(clientId: HrTenantId, id: string): Promise<ScanResult> {
    const scan = await this.get(clientId, id);
    const upload = scan.status === 'clean' ? await this.work.read.uploads.find(clientId, scan.fileId) : undefined;
    return { scan, pageCount: upload?.pageCount ?? null };
  }

  /**
   * Scans a pending file: its verdict, and for a clean one the upload it becomes (with `upload.created`), and the
   * callback's job, in one transaction that only a pending scan passes (a second run, the request's and its
   * safety net's, changes nothing). The bytes of a file that did not come out clean are deleted after.
   */
  private async scan({ clientId, scanId }: ScanJob): Promise<undefined> {
    const scan = await this.work.read.scans.find(clientId, scanId);
    if (scan?.status !== 'pending') return undefined;
    let verdict: Verdict;
    try {
      verdict = startsWithEicar(await this.head(scan)) ? INFECTED : CLEAN;
    } catch (err) {
      this.deps.log?.warn({ err, scan: scan.id }, 'reading an upload back to scan it failed');
      verdict = FAILED;
    }
    const pageCount = verdict.status === 'clean' ? await this.countPages(scan) : null;
    const settled = await this.work.run(async (tx) => {
      const at = this.deps.clock.now();
      if (!(await tx.scans.settle(clientId, scanId, verdict, at))) return undefined;
      if (verdict.status === 'clean') {
        const row: UploadRecord = {
          id: scan.fileId,
          clientId,
          filename: scan.filename,
          sha256: scan.sha256,
          size: scan.size,
          contentType: scan.contentType,
          pageCount,
          createdAt: scan.createdAt,
          expiresAt: scan.createdAt + scan.retentionPeriod * 1000,
          consumedAt: null,
        };
        await tx.uploads.insert(row);
        await tx.audit.record(clientId, uploadEvents, 'created', {
          id: row.id,
          name: row.filename,
          data: presentUpload(row, scan.retentionPeriod),
        });
      }
      const done: ScanRecord = { ...scan, ...verdict, scannedAt: at };
      if (done.callbackUrl !== null) {
        await enqueue(
          tx.scans.db,
          {
            queue: SCAN_CALLBACK_QUEUE,
            tenant: clientId,
            orderingKey: `scan-callback:${scanId}`,
            payload: {
              clientId,
              scanId,
              url: done.callbackUrl,
              body: JSON.stringify(presentScanStatus(done)),
            } satisfies CallbackJob,
            giveUpAfterMs: this.deps.callbacks.retryForMs,
            maxAttempts: null,
          },
          this.deps.clock.wall(),
        );
      }
      return done;
    });
    if (!settled) return undefined;
    if (settled.callbackUrl !== null) this.deps.wakeJobs();
    // The scan's row no longer holds the bytes (it has a verdict): a file that is no upload takes them with it.
    if (settled.status !== 'clean') await this.deps.blobs.deleteIfUnreferenced(scan.sha256);
    return undefined;
  }

  /** The first bytes of the file, as many as the EICAR string has. */
  private async head(scan: ScanRecord): Promise<Buffer> {
    const length = Math.min(scan.size, EICAR.length);
    const chunks: Buffer[] = [];
    for await (const chunk of await this.deps.blobs.read(scan.sha256, { start: 0, end: length - 1 })) {
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks);
  }

  /** The pages of a clean PDF (read back whole: it is within the upload limit); null for any other file. */
  private async countPages(scan: ScanRecord): Promise<number | null> {
    const pages = this.deps.pages;
    if (!pages || scan.contentType !== PDF) return null;
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of await this.deps.blobs.read(scan.sha256)) chunks.push(chunk as Buffer);
      return await pages.count(Buffer.concat(chunks));
    } catch (err) {
      this.deps.log?.warn({ err, scan: scan.id }, 'reading a PDF upload back to count its pages failed');
      return null;
    }
  }

  /** The queues of the runner: scans, and the callbacks of their verdicts. */
  queues(): Record<string, QueueOptions> {
    return {
      [SCAN_QUEUE]: {
        handle: (job: Job<ScanJob>) =>
          this.deps.clock.runAs(`hr:${job.payload.clientId}`, () => this.scan(job.payload)),
      },
      [SCAN_CALLBACK_QUEUE]: {
        handle: (job: Job<CallbackJob>) => this.callBack(job.payload),
        backoff: { baseMs: 1000, capMs: 3_600_000 },
      },
    };
  }

  private async callBack(payload: CallbackJob): Promise<undefined> {
    const result = await this.deps.callbacks.send(payload.url, payload.body);
    // A refused (private) address is refused again on every try: it fails for good, at once.
    if (!result.ok && result.refused) throw new PermanentJobError(result.error ?? 'refused');
    if (!result.ok) throw new Error(result.error ?? 'the callback failed');
    return undefined;
  }
}

/** Whether the bytes start with the EICAR test string (the EICAR file, or the string followed by anything). */
export function startsWithEicar(head: Buffer): boolean {
  return head.length >= EICAR.length && head.subarray(0, EICAR.length).equals(EICAR);
}
