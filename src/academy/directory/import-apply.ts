import type { AcademyTenantId } from '../../platform/db/tenant.js';
import { type FieldError, FieldValidationError } from '../../platform/errors.js';
import type { DirectoryImport } from './import.js';
import type { DirectoryRepository } from './repository.js';

/** An id a field of the file refers to, and the path of that field. */
interface Ref {
  field: string;
  id: number;
}

/** The refs that name no object: neither in the file (`inFile`) nor stored (`stored` is asked about the rest). */
async function missing(
  refs: Ref[],
  inFile: Set<number>,
  stored: (ids: number[]) => Promise<Set<number>>,
  what: string,
): Promise<FieldError[]> {
  const outside = refs.filter((r) => !inFile.has(r.id));
  if (outside.length === 0) return [];
  const found = await stored(outside.map((r) => r.id));
  return outside
    .filter((r) => !found.has(r.id))
    .map((r) => ({ field: r.field, code: 'not_found', message: `No ${what} has the id ${r.id}.` }));
}

const ids = <T extends { id: number }>(items: T[] | undefined) => new Set((items ?? []).map((i) => i.id));

/**
 * Every reference of the file names an object that exists once the import is done (in the same file, or imported
 * earlier into the academy): categories of courses, curriculums and content items; the user, course or
 * curriculum, and coupon of each enrollment. Otherwise a `not_found` error on each such field.
 */
export async function checkReferences(
  repo: DirectoryRepository,
  academyId: AcademyTenantId,
  doc: DirectoryImport,
): Promise<void> {
  const categories: Ref[] = [];
  (doc.courses ?? []).forEach((c, i) => {
    (c.categoryIds ?? []).forEach((id, j) => {
      categories.push({ field: `courses.${i}.categoryIds.${j}`, id });
    });
  });
  (doc.curriculums ?? []).forEach((c, i) => {
    if (c.categoryId != null) categories.push({ field: `curriculums.${i}.categoryId`, id: c.categoryId });
  });
  (doc.content ?? []).forEach((c, i) => {
    if (c.categoryId != null) categories.push({ field: `content.${i}.categoryId`, id: c.categoryId });
  });
  const users: Ref[] = [];
  const courses: Ref[] = [];
  const curriculums: Ref[] = [];
  (doc.enrollments ?? []).forEach((e, i) => {
    users.push({ field: `enrollments.${i}.userId`, id: e.userId });
    if (e.courseId !== undefined) courses.push({ field: `enrollments.${i}.courseId`, id: e.courseId });
    if (e.curriculumId !== undefined) curriculums.push({ field: `enrollments.${i}.curriculumId`, id: e.curriculumId });
  });
  const asSet = async <T extends { id: number }>(items: Promise<T[]>) => new Set((await items).map((i) => i.id));
  const errors: FieldError[] = [
    ...(await missing(
      categories,
      ids(doc.categories),
      (list) => asSet(repo.content.categoriesByIds(academyId, list)),
      'category',
    )),
    ...(await missing(users, ids(doc.users), (list) => repo.users.existingUserIds(academyId, list), 'user')),
    ...(await missing(
      courses,
      ids(doc.courses),
      (list) => asSet(repo.courses.coursesByIds(academyId, list)),
      'course',
    )),
    ...(await missing(
      curriculums,
      ids(doc.curriculums),
      (list) => asSet(repo.curriculums.curriculumsByIds(academyId, list)),
      'curriculum',
    )),
  ];
  errors.push(...(await couponErrors(repo, academyId, doc)));
  if (errors.length) throw new FieldValidationError(errors);
}

/** Each enrollment's coupon is one of its course's coupons (the course as in the file, else as stored). */
async function couponErrors(
  repo: DirectoryRepository,
  academyId: AcademyTenantId,
  doc: DirectoryImport,
): Promise<FieldError[]> {
  const withCoupon = (doc.enrollments ?? [])
    .map((e, i) => ({ e, i }))
    .filter(({ e }) => e.couponId != null && e.courseId !== undefined);
  if (withCoupon.length === 0) return [];
  const coupons = new Map<number, Set<number>>();
  for (const c of doc.courses ?? []) coupons.set(c.id, ids(c.coupons));
  const stored = await repo.courses.coursesByIds(
    academyId,
    withCoupon.map(({ e }) => e.courseId as number).filter((id) => !coupons.has(id)),
  );
  for (const c of stored) coupons.set(c.id, ids(c.coupons));
  return withCoupon
    .filter(
      ({ e }) => coupons.has(e.courseId as number) && !coupons.get(e.courseId as number)?.has(e.couponId as number),
    )
    .map(({ e, i }) => ({
      field: `enrollments.${i}.couponId`,
      code: 'not_found',
      message: `Course ${e.courseId} has no coupon with the id ${e.couponId}.`,
    }));
}

/** Writes the file's sections, in an order that keeps references valid; every field of an existing id is replaced. */
export async function writeImport(
  repo: DirectoryRepository,
  academyId: AcademyTenantId,
  doc: DirectoryImport,
  at: number,
): Promise<void> {
  await repo.content.upsertCategories(
    academyId,
    (doc.categories ?? []).map((c) => ({ id: c.id, name: c.name })),
  );
  await repo.users.upsertUsers(
    academyId,
    (doc.users ?? []).map((u) => ({
      id: u.id,
      firstname: u.firstname,
      middlename: u.middlename ?? null,
      lastname: u.lastname,
      preferredName: u.preferred_name ?? null,
      email: u.email,
      role: u.role ?? 'employee',
      active: u.active !== false,
      externalId: u.external_id ?? null,
      hiredDate: u.hired_date ?? null,
      joinedDate: u.joined_date ?? null,
      image: u.image ?? null,
      units: (u.units ?? []).map((unit) => ({ id: unit.id, name: unit.name })),
      badges: (u.badges ?? []).map((b) => ({
        id: b.id,
        name: b.name,
        description: b.description ?? '',
        image: b.image ?? null,
        awardedDate: b.awardedDate ?? null,
      })),
    })),
    at,
  );
  await repo.courses.upsertCourses(
    academyId,
    (doc.courses ?? []).map((c) => ({
      id: c.id,
      title: c.title,
      description: c.description ?? '',
      categoryIds: c.categoryIds ?? [],
      externalId: c.external_id ?? null,
      status: c.status ?? 'active',
      language: c.language ?? null,
      lectures: (c.lectures ?? []).map((l) => ({
        id: l.id,
        title: l.title,
        type: l.type ?? 'video',
        duration: l.duration ?? 0,
      })),
      exams: (c.exams ?? []).map((e) => ({
        id: e.id,
        title: e.title,
        passingScore: e.passingScore ?? null,
        questions: e.questions ?? 0,
      })),
      skills: (c.skills ?? []).map((s) => ({ id: s.id, name: s.name })),
      coupons: (c.coupons ?? []).map((k) => ({
        id: k.id,
        code: k.code,
        discount: k.discount ?? 100,
        maxUses: k.maxUses ?? null,
        expiresDate: k.expiresDate ?? null,
      })),
      invitations: (c.invitations ?? []).map((v) => ({
        id: v.id,
        email: v.email,
        sentDate: v.sentDate,
        status: v.status ?? 'pending',
      })),
    })),
  );
  await repo.curriculums.upsertCurriculums(
    academyId,
    (doc.curriculums ?? []).map((c) => ({
      id: c.id,
      title: c.title,
      description: c.description ?? '',
      categoryId: c.categoryId ?? null,
      externalId: c.external_id ?? null,
      status: c.status ?? 'active',
    })),
  );
  await repo.content.upsertVenues(
    academyId,
    (doc.venues ?? []).map((v) => ({
      id: v.id,
      name: v.name,
      seats: v.seats,
      address: v.address ?? null,
      city: v.city ?? null,
      latitude: v.latitude ?? null,
      longitude: v.longitude ?? null,
    })),
  );
  await repo.content.upsertContent(
    academyId,
    (doc.content ?? []).map((c) => ({
      id: c.id,
      title: c.title,
      description: c.description ?? '',
      typeId: c.type_id,
      subTypeId: c.sub_type_id,
      categoryId: c.categoryId ?? null,
      tags: c.tags ?? [],
      url: c.url ?? null,
      timeAdded: Date.parse(c.time_added),
      timeModified: Date.parse(c.time_modified ?? c.time_added),
    })),
  );
  await repo.enrollments.upsert(
    academyId,
    (doc.enrollments ?? []).map((e) => ({
      kind: e.courseId !== undefined ? ('course' as const) : ('curriculum' as const),
      itemId: (e.courseId ?? e.curriculumId) as number,
      userId: e.userId,
      role: e.role ?? 'student',
      couponId: e.couponId ?? null,
      enrolledDate: e.enrolled_date,
      progress: e.completion_date ? 100 : (e.progress ?? 0),
      timeSpent: e.time_spent ?? 0,
      completionDate: e.completion_date ?? null,
    })),
  );
}
