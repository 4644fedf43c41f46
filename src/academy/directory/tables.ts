import type { Generated } from 'kysely';

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
  /** JSON array of badges (migration 0038). */
  badges: Generated<string>;
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
  /** `active` or `archived`. */
  status: Generated<string>;
  language: string | null;
  /** `|1|5|`: the skill ids, for the `skills` filter. */
  skill_index: Generated<string>;
  /** JSON arrays, in the file's order. */
  lectures: Generated<string>;
  exams: Generated<string>;
  skills: Generated<string>;
  coupons: Generated<string>;
  invitations: Generated<string>;
}
export interface AcademyCurriculumsTable {
  academy_id: number;
  id: number;
  title: string;
  description: string;
  category_id: number | null;
  external_id: string | null;
  status: Generated<string>;
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

export interface AcademyContentTable {
  academy_id: number;
  id: number;
  title: string;
  description: string;
  type_id: number;
  sub_type_id: number;
  category_id: number | null;
  /** JSON array of strings. */
  tags: string;
  /** `|safety|fire|`: the tags in lower case, for the `tags` filter. */
  tag_index: string;
  url: string | null;
  time_added: number;
  time_modified: number;
}
/** A user's enrollment in a course or a curriculum. Dates are `YYYY-MM-DD`. */
export interface AcademyEnrollmentsTable {
  academy_id: number;
  kind: 'course' | 'curriculum';
  item_id: number;
  user_id: number;
  role: string;
  coupon_id: number | null;
  enrolled_date: string;
  progress: number;
  time_spent: number;
  completion_date: string | null;
  completed_by_admin: number;
}

declare module '../../platform/db/schema.js' {
  interface Tables {
    academy_users: AcademyUsersTable;
    academy_categories: AcademyCategoriesTable;
    academy_courses: AcademyCoursesTable;
    academy_curriculums: AcademyCurriculumsTable;
    academy_venues: AcademyVenuesTable;
    academy_content: AcademyContentTable;
    academy_enrollments: AcademyEnrollmentsTable;
  }
}
