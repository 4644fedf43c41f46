import type { Selectable } from 'kysely';
import { AcademyRepository } from '../../platform/db/repository.js';
import { containsText } from '../../platform/db/search.js';
import type { AcademyTenantId } from '../../platform/db/tenant.js';
import { chunks, type Window } from './repository-common.js';
import type { AcademyCurriculumsTable } from './tables.js';

/** A curriculum with the name of its category (null when it has none, or the category is gone). */
export interface CurriculumRecord {
  id: number;
  title: string;
  description: string;
  categoryId: number | null;
  externalId: string | null;
  status: string;
  categoryName: string | null;
}

function toCurriculum(row: Selectable<AcademyCurriculumsTable> & { category_name: string | null }): CurriculumRecord {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    categoryId: row.category_id,
    externalId: row.external_id,
    status: row.status,
    categoryName: row.category_name,
  };
}

export type CurriculumValues = Omit<CurriculumRecord, 'categoryName'>;

/** The directory's curriculums (learning paths). Every query takes the academy id first; lists are in id order. */
export class CurriculumsRepository extends AcademyRepository {
  private curriculums(academyId: AcademyTenantId) {
    return this.tenant(academyId)
      .selectFrom('academy_curriculums as k')
      .leftJoin('academy_categories as c', (join) =>
        // tenant-by-hand: the category is joined to the curriculum, read through `Tenant`, by the row's own academy.
        join.onRef('c.academy_id', '=', 'k.academy_id').onRef('c.id', '=', 'k.category_id'),
      )
      .selectAll('k')
      .select('c.name as category_name');
  }

  async listCurriculums(
    academyId: AcademyTenantId,
    filter: { search?: string | undefined; status: string },
    window: Window,
  ): Promise<CurriculumRecord[]> {
    let query = this.curriculums(academyId).where('k.status', '=', filter.status);
    if (filter.search !== undefined) query = query.where(containsText(['k.title'], filter.search));
    return (await query.orderBy('k.id').limit(window.limit).offset(window.start).execute()).map(toCurriculum);
  }

  async findCurriculum(academyId: AcademyTenantId, id: number): Promise<CurriculumRecord | undefined> {
    const row = await this.curriculums(academyId).where('k.id', '=', id).executeTakeFirst();
    return row ? toCurriculum(row) : undefined;
  }

  /** The curriculums of these ids that exist in the academy, in id order. */
  async curriculumsByIds(academyId: AcademyTenantId, ids: number[]): Promise<CurriculumRecord[]> {
    const out: CurriculumRecord[] = [];
    for (const part of chunks([...new Set(ids)])) {
      out.push(...(await this.curriculums(academyId).where('k.id', 'in', part).execute()).map(toCurriculum));
    }
    return out.sort((a, b) => a.id - b.id);
  }

  /** Inserts, or replaces every field of the curriculum with that id. */
  async upsertCurriculums(academyId: AcademyTenantId, curriculums: CurriculumValues[]): Promise<void> {
    for (const part of chunks(curriculums)) {
      await this.db
        .insertInto('academy_curriculums')
        .values(
          part.map((c) => ({
            academy_id: academyId,
            id: c.id,
            title: c.title,
            description: c.description,
            category_id: c.categoryId,
            external_id: c.externalId,
            status: c.status,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['academy_id', 'id']).doUpdateSet((eb) => ({
            title: eb.ref('excluded.title'),
            description: eb.ref('excluded.description'),
            category_id: eb.ref('excluded.category_id'),
            external_id: eb.ref('excluded.external_id'),
            status: eb.ref('excluded.status'),
          })),
        )
        .execute();
    }
  }
}
