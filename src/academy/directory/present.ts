import type { Badge, ContentItem } from './content-schemas.js';
import type { CouponView, CourseView, UserCourseView } from './courses-service.js';
import type { UserCurriculumView } from './curriculums-service.js';
import type { CategoryRecord, ContentRecord, VenueRecord } from './repository-content.js';
import type { CurriculumRecord } from './repository-curriculums.js';
import type { EnrollmentRecord, StudentRecord } from './repository-enrollments.js';
import type { BadgeRecord, UserRecord } from './repository-users.js';
import type { Category, Course, Curriculum, User, Venue } from './schemas.js';

export const presentCategory = (row: CategoryRecord): Category => ({ id: row.id, name: row.name });

const num = (value: number | null): number | null => (value === null ? null : Number(value));

export function presentUser(row: UserRecord): User {
  return {
    id: row.id,
    firstname: row.firstname,
    middlename: row.middlename,
    lastname: row.lastname,
    preferred_name: row.preferredName,
    email: row.email,
    role: row.role,
    active: row.active,
    external_id: row.externalId,
    hired_date: row.hiredDate,
    joined_date: row.joinedDate,
    image: row.image,
    units: row.units,
  };
}

export function presentCourse(row: CourseView): Course {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category_ids: row.categoryIds,
    categories: row.categories.map(presentCategory),
    external_id: row.externalId,
    status: row.status,
    language: row.language,
    students: row.students,
    lectures_count: row.lectures.length,
    exams_count: row.exams.length,
    events_count: row.eventsCount,
  };
}

export function presentCurriculum(row: CurriculumRecord): Curriculum {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category_id: row.categoryId,
    category:
      row.categoryId !== null && row.categoryName !== null ? { id: row.categoryId, name: row.categoryName } : null,
    external_id: row.externalId,
    status: row.status,
  };
}

export function presentVenue(row: VenueRecord): Venue {
  return {
    id: row.id,
    name: row.name,
    seats: row.seats,
    address: row.address,
    city: row.city,
    coordinates: { latitude: num(row.latitude), longitude: num(row.longitude) },
  };
}

function presentEnrollment(e: EnrollmentRecord) {
  return {
    role: e.role,
    enrolled_date: e.enrolledDate,
    progress: e.progress,
    time_spent: e.timeSpent,
    completed: e.completionDate !== null,
    completion_date: e.completionDate,
    completed_by_admin: e.completedByAdmin,
  };
}

export function presentStudent(row: StudentRecord) {
  return {
    id: row.userId,
    firstname: row.firstname,
    lastname: row.lastname,
    email: row.email,
    external_id: row.externalId,
    coupon_id: row.couponId,
    ...presentEnrollment(row),
  };
}

export const presentUserCourse = (row: UserCourseView) => ({
  ...presentCourse(row),
  ...presentEnrollment(row.enrollment),
});
export const presentUserCurriculum = (row: UserCurriculumView) => ({
  ...presentCurriculum(row),
  ...presentEnrollment(row.enrollment),
});

export const presentCoupon = (c: CouponView) => ({
  id: c.id,
  code: c.code,
  discount: c.discount,
  max_uses: c.maxUses,
  uses: c.uses,
  expires_date: c.expiresDate,
});

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

export function presentContent(row: ContentRecord): ContentItem {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    type_id: row.typeId,
    sub_type_id: row.subTypeId,
    category_id: row.categoryId,
    category:
      row.categoryId !== null && row.categoryName !== null ? { id: row.categoryId, name: row.categoryName } : null,
    tags: row.tags,
    url: row.url,
    time_added: iso(row.timeAdded),
    time_modified: iso(row.timeModified),
  };
}

export const presentBadge = (b: BadgeRecord): Badge => ({
  id: b.id,
  name: b.name,
  description: b.description,
  image: b.image,
  awarded_date: b.awardedDate,
});
