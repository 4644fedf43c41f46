/** Column types of this resource's tables, as Kysely sees them (instants in epoch ms, booleans as 0/1). */

export interface AcademyUsersTable {
  academy_id: number;
  id: number;
  firstname: string;
  middlename: string | null;
  lastname: string;
  preferred_name: string | null;
  email: string;
  role: string;
  active: number;
  external_id: string | null;
  hired_date: string | null;
  joined_date: string | null;
  image: string | null;
  /** JSON array of {id, name}. */
  units: string;
  created_at: number;
  updated_at: number;
}
export interface AcademyCategoriesTable {
  academy_id: number;
  id: number;
  name: string;
}
export interface AcademyCoursesTable {
  academy_id: number;
  id: number;
  title: string;
  description: string;
  /** JSON array of academy category ids, the first being the course's main category. */
  category_ids: string;
  external_id: string | null;
}
export interface AcademyCurriculumsTable {
  academy_id: number;
  id: number;
  title: string;
  description: string;
  category_id: number | null;
  external_id: string | null;
}
export interface AcademyVenuesTable {
  academy_id: number;
  id: number;
  name: string;
  seats: number;
  address: string | null;
  city: string | null;
  latitude: number | null;
  longitude: number | null;
}

declare module '../../platform/db/schema.js' {
  interface Tables {
    academy_users: AcademyUsersTable;
    academy_categories: AcademyCategoriesTable;
    academy_courses: AcademyCoursesTable;
    academy_curriculums: AcademyCurriculumsTable;
    academy_venues: AcademyVenuesTable;
  }
}
