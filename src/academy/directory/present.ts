import type { CategoryRow, CurriculumRow, UserRow, VenueRow } from './repository.js';
import type { Category, Course, Curriculum, User, Venue } from './schemas.js';
import type { CourseWithCategories } from './service.js';

export const presentCategory = (row: CategoryRow): Category => ({ id: row.id, name: row.name });

const num = (value: number | null): number | null => (value === null ? null : Number(value));

export function presentUser(row: UserRow): User {
  return {
    id: row.id,
    firstname: row.firstname,
    middlename: row.middlename,
    lastname: row.lastname,
    preferred_name: row.preferred_name,
    email: row.email,
    role: row.role,
    active: Boolean(row.active),
    external_id: row.external_id,
    hired_date: row.hired_date,
    joined_date: row.joined_date,
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
    external_id: row.external_id,
  };
}

export function presentCurriculum(row: CurriculumRow): Curriculum {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category_id: row.category_id,
    category:
      row.category_id !== null && row.category_name !== null ? { id: row.category_id, name: row.category_name } : null,
    external_id: row.external_id,
  };
}

export function presentVenue(row: VenueRow): Venue {
  return {
    id: row.id,
    name: row.name,
    seats: row.seats,
    address: row.address,
    city: row.city,
    coordinates: { latitude: num(row.latitude), longitude: num(row.longitude) },
  };
}
