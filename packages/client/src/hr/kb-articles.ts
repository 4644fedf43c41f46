/** Knowledge-base articles (`/kb_articles`, with the images of their bodies), their tags (`/kb_tags`) and media. */

import type { RequestOptions } from '../http.js';
import type {
  KbArticle,
  KbArticleListQuery,
  KbArticlePatch,
  KbArticlePut,
  KbTag,
  KbTagListQuery,
} from '../schemas/hr/knowledge/kb-articles.js';
import type { KbArticleImage } from '../schemas/hr/knowledge/kb-media.js';
import { type DownloadResponse, enc, formOf, type HrCore, type UploadInput, type Verbs } from './core.js';

/** `hr.kbArticles`. */
export function kbArticles(core: HrCore, v: Verbs) {
  const path = '/kb_articles';
  return {
    images: {
      /** Uploads an image for article bodies (multipart `image`: PNG, JPEG, GIF or WebP): its `url`, to embed. */
      upload: (input: UploadInput, options?: RequestOptions) =>
        core.json<KbArticleImage>('POST', `${path}/images`, { form: formOf(input, 'image') }, options),
    },
    list: v.list<KbArticle, KbArticleListQuery>(path),
    retrieve: v.retrieve<KbArticle>(path),
    upsert: v.upsert<KbArticlePut, KbArticle>(path),
    update: v.update<KbArticlePatch, KbArticle>(path),
    del: v.del(path),
  };
}

/** `hr.kbTags`. */
export function kbTags(v: Verbs) {
  return { list: v.list<KbTag, KbTagListQuery>('/kb_tags') };
}

/** `hr.articleResources`: the images embedded in articles (`/article_resources/{id}`). */
export function articleResources(core: HrCore) {
  return {
    /** The image's bytes, with its type. */
    download: (id: string, options?: RequestOptions): Promise<DownloadResponse> =>
      core.download(`/article_resources/${enc(id)}`, options),
  };
}

/** `hr.articleDocuments`: the files of the knowledge base's "Media" page (`/article_documents/{slug}`). */
export function articleDocuments(core: HrCore) {
  return {
    /** The media file's bytes, with its type. */
    download: (id: string, options?: RequestOptions): Promise<DownloadResponse> =>
      core.download(`/article_documents/${enc(id)}`, options),
  };
}
