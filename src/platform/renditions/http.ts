import { type Static, Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { FieldValidationError, InvalidRequestError, NotFoundError } from '../errors.js';
import type { BlobDownload } from '../http/send-blob.js';
import { fieldErrorsFromAjv } from '../http/validation.js';
import { PREVIEW_WIDTHS, type PreviewSize, type Rendition } from './renditions.js';

const SIZES = Object.keys(PREVIEW_WIDTHS) as PreviewSize[];
const sizeDescription = `The width of the picture: ${SIZES.map((s) => `\`${s}\` (${PREVIEW_WIDTHS[s]} px)`).join(', ')}; \`normal\` by default. A page is never drawn taller than three times that width, and an image never larger than it is.`;
/** The `size` of a preview. */
export const PreviewSizeQuery = Type.Union(
  SIZES.map((s) => Type.Literal(s)),
  { description: sizeDescription },
);

/** The query of a document's preview (reference §3c.2): `page` (a string, as the reference has it) and `size`. */
export const DocumentPreviewQuery = Type.Object(
  {
    page: Type.Optional(
      Type.String({
        maxLength: 7,
        pattern: '^[1-9][0-9]*$',
        description: 'The page, from 1 (default 1); at most 7 digits.',
      }),
    ),
    size: Type.Optional(PreviewSizeQuery),
  },
  { additionalProperties: false },
);

/** The query of a signature process's preview (reference §5.4): `page`, required, and `size`. */
export const RequiredPagePreviewQuery = Type.Object(
  {
    page: Type.String({ maxLength: 7, pattern: '^[1-9][0-9]*$', description: 'The page, from 1; at most 7 digits.' }),
    size: Type.Optional(PreviewSizeQuery),
  },
  { additionalProperties: false },
);

/** The query of a request file's page preview (reference §3d.5): `size` and `crop_rate`. */
export const PagePreviewQuery = Type.Object(
  {
    size: Type.Optional(PreviewSizeQuery),
    crop_rate: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 1,
        description: 'The share of the page’s height drawn, from its top: above 0, at most 1 (default 1).',
      }),
    ),
  },
  { additionalProperties: false },
);

/** A page in the path (`…/preview/{page}`), from 1. */
export const PreviewPage = Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'The page, from 1.' });

/**
 * A preview's query as the reference answers a bad one: 422 with the fields (the route sets `attachValidation`);
 * a bad page in the path is 404 and a bad header 400, as elsewhere. Then `page`, `size` and `crop_rate` with their
 * defaults. Call it first, as a schema would be checked: a bad query is refused before the object is looked up.
 */
export function previewOptions(
  request: FastifyRequest,
  page?: number,
): { page: number; size: PreviewSize; crop: number } {
  if (request.validationError) {
    const context = (request.validationError as { validationContext?: string }).validationContext;
    if (context === 'params') {
      throw new NotFoundError('page', String((request.params as { page?: unknown }).page ?? ''), 'No such page.');
    }
    if (context !== 'querystring') throw new InvalidRequestError(request.validationError.message);
    const fields = fieldErrorsFromAjv((request.validationError as { validation?: never }).validation ?? []);
    throw new FieldValidationError(
      fields.length > 0 ? fields : [{ field: 'query', code: 'invalid', message: request.validationError.message }],
    );
  }
  const query = request.query as Static<typeof DocumentPreviewQuery> & Static<typeof PagePreviewQuery>;
  return {
    page: page ?? (query.page === undefined ? 1 : Number(query.page)),
    size: query.size ?? 'normal',
    crop: query.crop_rate ?? 1,
  };
}

/** How a preview is sent: a PNG, shown inline, named after the file and the page. */
export function previewDownload(rendition: Rendition, filename: string, page: number): BlobDownload {
  const stem = filename.replace(/\.[^.]*$/, '') || 'preview';
  return {
    sha256: rendition.sha256,
    size: rendition.size,
    contentType: 'image/png',
    filename: `${stem}-page-${page}.png`,
    disposition: 'inline',
  };
}

/** The OpenAPI answer of a preview. */
export const PNG_RESPONSE = {
  description: 'The page, as a PNG.',
  content: { 'image/png': { schema: { type: 'string', format: 'binary' } } },
} as const;
