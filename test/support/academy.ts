import type { TestServer } from './harness.js';

/** An academy with a small directory, and a caller for its API. */
export interface AcademyCaller {
  acadId: number;
  apikey: string;
  superAdminId: number;
  /** Calls `/v1<path>` with the academy's credentials in the query string. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  json<T>(method: string, path: string, body?: unknown, status?: number): Promise<T>;
}

export const USERS = [
  { id: 101, firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.test' },
  { id: 102, firstname: 'Alan', lastname: 'Turing', email: 'alan@example.test' },
  { id: 103, firstname: 'Grace', lastname: 'Hopper', email: 'grace@example.test' },
  { id: 104, firstname: 'Edsger', lastname: 'Dijkstra', email: 'edsger@example.test' },
  { id: 105, firstname: 'Barbara', lastname: 'Liskov', email: 'barbara@example.test' },
];

/** Creates an academy and writes its directory rows straight into the database. */
export async function academyCaller(
  server: TestServer,
  name = `Academy ${Math.random().toString(36).slice(2, 8)}`,
): Promise<AcademyCaller> {
  const { acadId, apikey, superAdminId } = await server.app.services.academies.create(name);
  const db = server.app.database.db;
  const at = Date.now();
  await db
    .insertInto('academy_users')
    .values(
      USERS.map((u) => ({
        academy_id: acadId,
        ...u,
        middlename: null,
        preferred_name: u.id === 101 ? 'Countess' : null,
        role: 'employee',
        active: 1,
        external_id: null,
        hired_date: null,
        joined_date: null,
        image: null,
        units: '[]',
        created_at: at,
        updated_at: at,
      })),
    )
    .execute();
  await db
    .insertInto('academy_categories')
    .values([
      { academy_id: acadId, id: 10, name: 'Safety' },
      { academy_id: acadId, id: 11, name: 'Leadership' },
      { academy_id: acadId, id: 12, name: 'Compliance' },
    ])
    .execute();
  await db
    .insertInto('academy_courses')
    .values([
      {
        academy_id: acadId,
        id: 500,
        title: 'Fire safety',
        description: '',
        category_ids: '[11,10]',
        external_id: null,
      },
    ])
    .execute();
  await db
    .insertInto('academy_curriculums')
    .values([
      { academy_id: acadId, id: 600, title: 'New managers', description: '', category_id: 12, external_id: null },
    ])
    .execute();
  await db
    .insertInto('academy_venues')
    .values([
      {
        academy_id: acadId,
        id: 700,
        name: 'Main Hall',
        seats: 40,
        address: '1 Main St',
        city: 'Athens',
        latitude: 37.98,
        longitude: 23.72,
      },
    ])
    .execute();
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const sep = path.includes('?') ? '&' : '?';
    return fetch(`${server.url}/v1${path}${sep}acadId=${acadId}&apikey=${apikey}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  };
  return {
    acadId,
    apikey,
    superAdminId,
    call,
    async json<T>(method: string, path: string, body?: unknown, status = method === 'POST' ? 201 : 200): Promise<T> {
      const res = await call(method, path, body);
      const text = await res.text();
      if (res.status !== status) throw new Error(`${method} ${path}: expected ${status}, got ${res.status}: ${text}`);
      return JSON.parse(text) as T;
    },
  };
}

export interface TimeIn {
  hours: number;
  minutes: number;
  meridian: 'AM' | 'PM';
}

export const t = (text: string): TimeIn => {
  const m = /^(\d{1,2}):(\d{2}) (AM|PM)$/.exec(text);
  if (!m) throw new Error(`bad time ${text}`);
  return { hours: Number(m[1]), minutes: Number(m[2]), meridian: m[3] as 'AM' | 'PM' };
};

/** A valid create body of either kind, on the given local dates (MM/DD/YYYY), 09:00 AM to 05:00 PM. */
export function eventBody(
  kind: 'ilt' | 'vc',
  dates: string[] = ['04/19/2031'],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const days = dates.map((date, i) => ({ topic: `Day ${i + 1}`, date, from: t('9:00 AM'), to: t('5:00 PM') }));
  return {
    title: `Workshop ${kind}`,
    description: 'Hands-on training',
    timeOffset: 2,
    registrationDeadline: 24,
    based: 2,
    ...(kind === 'ilt' ? { days, venue: 700, venueSeats: 40 } : { sessions: days }),
    ...extra,
  };
}

export interface Detail {
  id: number;
  status: string;
  [key: string]: unknown;
}
