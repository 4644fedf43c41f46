import type { Selectable } from 'kysely';
import { HrRepository } from '../../../platform/db/repository.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { HrKbArticleDocumentsTable, HrKbArticleResourcesTable } from './tables.js';

/** A stored file: what a download sends. */
interface StoredFile {
  filename: string;
  sha256: string;
  size: number;
  contentType: string;
}

/** An image of article bodies. */
export interface ArticleResourceRecord extends StoredFile {
  id: string;
  width: number;
  height: number;
  createdAt: number;
}

/** A file of the "Media" page. */
export interface ArticleDocumentRecord extends StoredFile {
  id: string;
  languageCode: string;
  title: string;
  description: string | null;
  createdAt: number;
  updatedAt: number;
}

function toResource(row: Selectable<HrKbArticleResourcesTable>): ArticleResourceRecord {
  return {
    id: row.id,
    filename: row.filename,
    sha256: row.sha256,
    size: Number(row.size),
    contentType: row.content_type,
    width: Number(row.width),
    height: Number(row.height),
    createdAt: Number(row.created_at),
  };
}

function toDocument(row: Selectable<HrKbArticleDocumentsTable>): ArticleDocumentRecord {
  return {
    id: row.id,
    languageCode: row.language_code,
    title: row.title,
    description: row.description,
    filename: row.filename,
    sha256: row.sha256,
    size: Number(row.size),
    contentType: row.content_type,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function documentColumns(d: ArticleDocumentRecord) {
  return {
    language_code: d.languageCode,
    title: d.title,
    description: d.description,
    filename: d.filename,
    sha256: d.sha256,
    size: d.size,
    content_type: d.contentType,
    updated_at: d.updatedAt,
  };
}

/** The knowledge base's media: article images and "Media" files. Every query takes the client first. */
export class KbMediaRepository extends HrRepository {
  async insertResource(clientId: HrTenantId, r: ArticleResourceRecord): Promise<void> {
    await this.tenant(clientId)
      .insertInto('hr_kb_article_resources', {
        id: r.id,
        filename: r.filename,
        sha256: r.sha256,
        size: r.size,
        content_type: r.contentType,
        width: r.width,
        height: r.height,
        created_at: r.createdAt,
      })
      .execute();
  }

  async findResource(clientId: HrTenantId, id: string): Promise<ArticleResourceRecord | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_kb_article_resources')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toResource(row) : undefined;
  }

  async findDocument(clientId: HrTenantId, id: string): Promise<ArticleDocumentRecord | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_kb_article_documents')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toDocument(row) : undefined;
  }

  async insertDocument(clientId: HrTenantId, d: ArticleDocumentRecord): Promise<void> {
    await this.tenant(clientId)
      .insertInto('hr_kb_article_documents', { id: d.id, created_at: d.createdAt, ...documentColumns(d) })
      .execute();
  }

  async updateDocument(clientId: HrTenantId, d: ArticleDocumentRecord): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_kb_article_documents')
      .set(documentColumns(d))
      .where('id', '=', d.id)
      .execute();
  }
}
