/** Column types of this resource's tables, as Kysely sees them (instants in epoch ms). */

import type { Generated } from 'kysely';

/** An image uploaded for article bodies (`POST /kb_articles/images`): its bytes are the blob `sha256`. */
export interface HrKbArticleResourcesTable {
  pk: Generated<number>;
  client_id: string;
  /** UUID v4, made by the server: `/article_resources/{id}`. */
  id: string;
  /** As sent by the client, cleaned; never used as a path. */
  filename: string;
  sha256: string;
  size: number;
  /** `image/png`, `image/jpeg`, `image/gif` or `image/webp`, as the bytes say. */
  content_type: string;
  width: number;
  height: number;
  created_at: number;
}

/** A file of the knowledge base's "Media" page (`/article_documents/{id}`): its bytes are the blob `sha256`. */
export interface HrKbArticleDocumentsTable {
  pk: Generated<number>;
  client_id: string;
  /** The slug, chosen by whoever files it (`atrium seed`). */
  id: string;
  language_code: string;
  title: string;
  description: string | null;
  filename: string;
  sha256: string;
  size: number;
  content_type: string;
  created_at: number;
  updated_at: number;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_kb_article_resources: HrKbArticleResourcesTable;
    hr_kb_article_documents: HrKbArticleDocumentsTable;
  }
}
