/** The academy's directory: users, courses, learning paths, and content (categories, venues, timezones). */

import type { RequestOptions } from '../http.js';
import type { AutoPager } from '../pagination.js';
import type {
  CategoriesQuery,
  Category,
  Course,
  CoursesQuery,
  Curriculum,
  CurriculumsQuery,
  UsersQuery as DirectoryUsersQuery,
  Timezone,
  User,
  Venue,
  VenuesQuery,
} from '../schemas/academy/directory.js';
import { type AcademyCore, type AcademyListParams, MAX } from './core.js';

function directory<T, Q>(core: AcademyCore, path: string, max: number) {
  return {
    /** Every item, in id order: an {@link AutoPager} over `start`/`limit` pages. */
    list: (params?: AcademyListParams<Q>, options?: RequestOptions): AutoPager<T> =>
      core.pager<T, T[]>(path, params as Record<string, unknown>, max, (a) => ({ items: a }), options),
  };
}

/** `academy.users`, `academy.courses`, `academy.curriculums` and `academy.content`. */
export function directoryResources(core: AcademyCore) {
  const users = directory<User, DirectoryUsersQuery>(core, '/users', MAX.users);
  const courses = directory<Course, CoursesQuery>(core, '/courses', MAX.courses);
  const curriculums = directory<Curriculum, CurriculumsQuery>(core, '/curriculums', MAX.curriculums);
  return {
    users: {
      ...users,
      /** One user. */
      retrieve: (id: number, options?: RequestOptions): Promise<User> => core.json('GET', `/users/${id}`, {}, options),
    },
    courses: {
      ...courses,
      /** One course. */
      retrieve: (id: number, options?: RequestOptions): Promise<Course> =>
        core.json('GET', `/courses/${id}`, {}, options),
    },
    curriculums: {
      ...curriculums,
      /** One learning path. */
      retrieve: (id: number, options?: RequestOptions): Promise<Curriculum> =>
        core.json('GET', `/curriculums/${id}`, {}, options),
    },
    content: {
      /** Academy categories (`/content/categories`). */
      categories: directory<Category, CategoriesQuery>(core, '/content/categories', MAX.categories),
      /** Venues of in-class events (`/content/venues`, pages of at most 20). */
      venues: directory<Venue, VenuesQuery>(core, '/content/venues', MAX.venues),
      /** Timezones (`/content/timezones`): ids for `timezoneId`. */
      timezones: {
        /** Every timezone (one answer, not paged). */
        list: (options?: RequestOptions): Promise<Timezone[]> => core.json('GET', '/content/timezones', {}, options),
      },
    },
  };
}
