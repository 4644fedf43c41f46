import { Readable } from 'node:stream';
import type { Logger } from 'pino';
import { type BlobStore, readBlob } from '../blobs/store.js';
import type { Db } from '../db/database.js';
import { FieldValidationError, NotFoundError, ServiceUnavailableError, StateError } from '../errors.js';
import type { ComposedDocument } from '../pdf/compose.js';
import type { RenderKind } from '../pdf/render.js';
import type { PdfWorker } from '../pdf/runner.js';
import type { TextOccurrence } from '../pdf/text.js';
import { wallClock } from '../time.js';
import './tables.js';

/** The preview sizes of the reference, and the width in pixels of each (docs/hr-api.md, "Previews"). */
export const PREVIEW_WIDTHS = { small: 300, normal: 800, large: 1600 } as const;
export type PreviewSize = keyof typeof PREVIEW_WIDTHS;

/** A stored file a rendition is made of: its blob and its sniffed type. */
export interface RenditionSource {
  sha256: string;
  contentType: string | null;
}

/** What is asked of a preview. */
export interface PreviewRequest {
  /** 1-based. */
  page: number;
  size: PreviewSize;
  /** The share of the page's height, from its top, in (0, 1] (the reference's `crop_rate`); 1 by default. */
  crop?: number;
  /**
   * How a page past the end is refused: `not_found` (404, a page in the path) or `invalid` (422 on the `page`
   * field, a page in the query).
   */
  missingPage: 'not_found' | 'invalid';
}

/** A rendition: the PNG's blob. */
export interface Rendition {
  sha256: string;
  size: number;
}

/** Renders waiting at most for the one running; past that a preview is refused with 503 (try again). */
const MAX_WAITING = 32;

/** The file types a preview is made of. */
export function renderKindOf(contentType: string | null): RenderKind | undefined {
  if (contentType === 'application/pdf') return 'pdf';
  if (contentType === 'image/jpeg' || contentType === 'image/png') return 'image';
  return undefined;
}

/**
 * Previews of stored files (docs/hr-api.md, "Previews"): one page of a PDF, or an image, as a PNG, rendered in the
 * PDF worker (platform/pdf) and cached as a blob keyed by the file's checksum, the page, the width and the crop,
 * so that the same page of the same bytes is rendered once, whichever document holds them, in any process.
 *
 * A miss reads the file whole into memory to render it: one file at a time (the others wait, up to `MAX_WAITING`),
 * so a preview costs at most the upload limit in memory, twice. A file that cannot be read, or that goes past the
 * worker's time or heap limits, is refused with a 422; nothing is cached for it but that it cannot be read.
 */
export class Renditions {
  private running: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    private readonly worker: PdfWorker,
    private readonly log?: Logger,
  ) {}

  /** The page count of a file (an image has one), as the renderer reads it: 422 when it cannot. */
  async pageCount(source: RenditionSource): Promise<number> {
    const kind = this.kindOf(source);
    const known = await this.db
      .selectFrom('rendition_pages')
      .select('pages')
      .where('source_sha256', '=', source.sha256)
      .executeTakeFirst();
    if (known) return this.readable(known.pages);
    const pages = await this.oneAtATime(async () => this.worker.renderable(await this.bytes(source.sha256), kind));
    if (pages === 'limits') throw limitsError();
    await this.rememberPages(source.sha256, pages ?? 0);
    return this.readable(pages ?? 0);
  }

  /** The PNG of one page of the file, from the cache or rendered now. */
  async preview(source: RenditionSource, request: PreviewRequest): Promise<Rendition> {
    const kind = this.kindOf(source);
    const width = PREVIEW_WIDTHS[request.size];
    const crop = Math.round((request.crop ?? 1) * 10_000);
    if (!(crop > 0 && crop <= 10_000)) {
      throw new FieldValidationError([
        { field: 'crop_rate', code: 'out_of_range', message: 'crop_rate is a share of the page: above 0, at most 1.' },
      ]);
    }
    const key = { source_sha256: source.sha256, page: request.page, width, crop };
    const cached = await this.db
      .selectFrom('renditions')
      .select(['sha256', 'size'])
      .where('source_sha256', '=', key.source_sha256)
      .where('page', '=', key.page)
      .where('width', '=', key.width)
      .where('crop', '=', key.crop)
      .executeTakeFirst();
    if (cached) return { sha256: cached.sha256, size: Number(cached.size) };
    const known = await this.db
      .selectFrom('rendition_pages')
      .select('pages')
      .where('source_sha256', '=', source.sha256)
      .executeTakeFirst();
    if (known) this.checkPage(this.readable(known.pages), request);

    const result = await this.oneAtATime(async () =>
      this.worker.render(await this.bytes(source.sha256), kind, { page: request.page, width, crop: crop / 10_000 }),
    );
    if (!result.ok) {
      if (result.reason === 'limits') throw limitsError();
      const pages = result.reason === 'page' ? result.pages : 0;
      await this.rememberPages(source.sha256, pages);
      this.checkPage(this.readable(pages), request);
      throw unreadableError();
    }
    await this.rememberPages(source.sha256, result.pages);
    const at = wallClock();
    const put = await this.blobs.put(Readable.from([Buffer.from(result.png)]), {
      attach: async (trx, blob) => {
        await trx
          .insertInto('renditions')
          .values({ ...key, sha256: blob.sha256, size: blob.size, created_at: at })
          .onConflict((c) => c.columns(['source_sha256', 'page', 'width', 'crop']).doNothing())
          .execute();
      },
    });
    return { sha256: put.blob.sha256, size: put.blob.size };
  }

  /** Where a keyword appears in a PDF's text (its pages' text runs): 422 for a file that is not a readable PDF. */
  async findText(source: RenditionSource, keyword: string): Promise<TextOccurrence[]> {
    if (this.kindOf(source) !== 'pdf') {
      throw new StateError(
        'unsupported_file_type',
        `Only a PDF's text can be searched; this file is ${source.contentType ?? 'of an unknown type'}.`,
      );
    }
    const found = await this.oneAtATime(async () => this.worker.find(await this.bytes(source.sha256), keyword));
    if (found === 'limits') throw limitsError();
    if (found === null) throw unreadableError();
    return found;
  }

  /**
   * A duplicate of a PDF (reference: `GET …/duplicate`): the original with "DUPLICATE" across each page and, at its
   * foot, `footer`. Made afresh each time (it is timestamped), one at a time like every miss. 422 for another type
   * of file (the reference: PDF sources only), a damaged or encrypted PDF, or one past the limits.
   */
  async duplicate(source: RenditionSource, footer: string): Promise<Uint8Array> {
    if (renderKindOf(source.contentType) !== 'pdf') {
      throw new StateError(
        'unsupported_file_type',
        `Only a PDF has a duplicate; this file is ${source.contentType ?? 'of an unknown type'}.`,
      );
    }
    const copy = await this.oneAtATime(async () => this.worker.duplicate(await this.bytes(source.sha256), { footer }));
    if (copy === 'limits') throw limitsError();
    if (copy === 'unreadable') throw unreadableError();
    return copy;
  }

  /** A document of text as a PDF (a request's `GET …/pdf`); 422 past the limits. */
  async compose(content: ComposedDocument): Promise<Uint8Array> {
    const written = await this.oneAtATime(() => this.worker.compose(content));
    if (!written) throw limitsError();
    return written;
  }

  /**
   * Forgets the renditions of files no longer stored (their blobs deleted), and deletes the PNGs no other rendition
   * holds. Run hourly with the other sweeps; answers how many renditions it forgot.
   */
  async sweep(): Promise<number> {
    const gone = await this.db
      .deleteFrom('renditions')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(selectFrom('blobs').select('blobs.sha256').whereRef('blobs.sha256', '=', 'renditions.source_sha256')),
        ),
      )
      .returning('sha256')
      .execute();
    await this.db
      .deleteFrom('rendition_pages')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('blobs').select('blobs.sha256').whereRef('blobs.sha256', '=', 'rendition_pages.source_sha256'),
          ),
        ),
      )
      .execute();
    for (const sha256 of new Set(gone.map((g) => g.sha256))) {
      await this.blobs.deleteIfUnreferenced(sha256).catch((err: unknown) => this.log?.warn({ err }, 'rendition sweep'));
    }
    return gone.length;
  }

  /** Stops the renderer's worker thread (closing the server). */
  async stop(): Promise<void> {
    await this.worker.stop();
  }

  private kindOf(source: RenditionSource): RenderKind {
    const kind = renderKindOf(source.contentType);
    if (!kind) {
      throw new StateError(
        'unsupported_file_type',
        `Only a PDF, a JPEG or a PNG has a preview; this file is ${source.contentType ?? 'of an unknown type'}.`,
      );
    }
    return kind;
  }

  private readable(pages: number): number {
    if (pages <= 0) throw unreadableError();
    return pages;
  }

  private checkPage(pages: number, request: PreviewRequest): void {
    if (request.page <= pages) return;
    const message = `The file has ${pages} page${pages === 1 ? '' : 's'}; there is no page ${request.page}.`;
    if (request.missingPage === 'not_found') throw new NotFoundError('page', String(request.page), message);
    throw new FieldValidationError([{ field: 'page', code: 'out_of_range', message }]);
  }

  private async rememberPages(sha256: string, pages: number): Promise<void> {
    await this.db
      .insertInto('rendition_pages')
      .values({ source_sha256: sha256, pages, created_at: wallClock() })
      .onConflict((c) => c.column('source_sha256').doNothing())
      .execute();
  }

  private bytes(sha256: string): Promise<Uint8Array> {
    return readBlob(this.blobs, sha256);
  }

  /** Runs misses one at a time (each holds a whole file in memory); 503 when too many wait. */
  private async oneAtATime<T>(run: () => Promise<T>): Promise<T> {
    if (this.waiting >= MAX_WAITING) {
      throw new ServiceUnavailableError('Too many previews are being rendered; try again in a moment.');
    }
    this.waiting++;
    const previous = this.running;
    const mine = previous.catch(() => {}).then(run);
    this.running = mine.catch(() => {});
    try {
      return await mine;
    } finally {
      this.waiting--;
    }
  }
}

function unreadableError(): StateError {
  return new StateError('unreadable_file', 'The file cannot be read: it is damaged, or not what its type says.');
}

function limitsError(): StateError {
  return new StateError(
    'rendering_limits',
    'The file could not be rendered within the limits (time and memory): it is refused.',
  );
}
