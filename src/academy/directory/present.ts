import type { CategoryRecord, CurriculumRecord, UserRecord, VenueRecord } from './repository.js';
import type { Category, Course, Curriculum, User, Venue } from './schemas.js';
import type { CourseWithCategories } from './service.js';

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

export function presentCourse(row: CourseWithCategories): Course {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category_ids: row.categoryIds,
    categories: row.categories.map(presentCategory),
    external_id: row.externalId,
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
