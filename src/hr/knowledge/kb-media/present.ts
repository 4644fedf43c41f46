import { formatDateTime } from '../../../platform/time.js';
import type { ArticleDocumentRecord, ArticleResourceRecord } from './repository.js';
import type { KbArticleImage } from './schemas.js';

/** `KbArticleImage`: the image's address under the API root the request reached (`https://host/api/v2/client`). */
export function presentKbArticleImage(resource: ArticleResourceRecord, apiRoot: string): KbArticleImage {
  return { url: `${apiRoot}/article_resources/${encodeURIComponent(resource.id)}` };
}

/** An image as its audit event records it. */
export function presentArticleResource(r: ArticleResourceRecord) {
  return {
    id: r.id,
    filename: r.filename,
    content_type: r.contentType,
    size: r.size,
    width: r.width,
    height: r.height,
    created_at: formatDateTime(r.createdAt),
  };
}

/** `ArticleDocument` (reference §3e.3), with its file's name, type and size: the data of its audit events. */
export function presentArticleDocument(d: ArticleDocumentRecord) {
  return {
    id: d.id,
    language_code: d.languageCode,
    title: d.title,
    description: d.description,
    filename: d.filename,
    content_type: d.contentType,
    size: d.size,
    created_at: formatDateTime(d.createdAt),
    updated_at: formatDateTime(d.updatedAt),
  };
}
