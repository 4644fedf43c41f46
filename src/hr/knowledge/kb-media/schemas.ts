import { type Static, Type } from '@sinclair/typebox';

/** `KbArticleImage` (reference §3e.3): where the uploaded image is served. */
export const KbArticleImage = Type.Object(
  {
    url: Type.String({
      format: 'uri',
      description: 'The image’s address on this server (`GET /article_resources/{id}`), to embed in article bodies.',
    }),
  },
  { $id: 'KbArticleImage' },
);
export type KbArticleImage = Static<typeof KbArticleImage>;

/** The multipart body of `POST /kb_articles/images`, for the OpenAPI document (the route reads it as a stream). */
export const KbArticleImageBodyDoc = Type.Object({
  image: Type.String({ format: 'binary', description: 'A PNG, JPEG, GIF or WebP image, at most 20 MB.' }),
});

export const ArticleResourceParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 255, description: 'The resource id (a UUID).' }),
});
export type ArticleResourceParams = Static<typeof ArticleResourceParams>;

export const ArticleDocumentParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 255, description: 'The media file’s id (a slug).' }),
});
export type ArticleDocumentParams = Static<typeof ArticleDocumentParams>;

/** A slug: lower-case letters, digits and dashes. */
export const ARTICLE_DOCUMENT_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * `ArticleDocument` (reference §3e.3): a "Media" file's description. No path of the reference returns it; Atrium
 * takes it when a media file is filed (`KbMediaService.putDocument`, which `atrium seed` calls).
 */
export const ArticleDocument = Type.Object({
  language_code: Type.String({ minLength: 2, maxLength: 7 }),
  title: Type.String({ minLength: 1, maxLength: 255 }),
  description: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
});
export type ArticleDocument = Static<typeof ArticleDocument>;
