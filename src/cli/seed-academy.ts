import type { AcademyContext } from '../academy/academies/service.js';
import type { EventBody, Kind } from '../academy/events/schemas.js';
import { academyTenantId } from '../platform/db/tenant.js';
import type { Services } from '../services.js';

export const DEMO_ACADEMY_NAME = 'Atrium demo academy';

const FIRST = [
  'Maria',
  'Nikos',
  'Eleni',
  'Jonas',
  'Aisha',
  'Pedro',
  'Yuki',
  'Fatima',
  'Liam',
  'Chloé',
  'Sven',
  'Priya',
];
const LAST = [
  'Papadopoulou',
  'Georgiou',
  'Schmidt',
  'Okafor',
  'Silva',
  'Tanaka',
  'Haddad',
  'Murphy',
  'Durand',
  'Larsen',
  'Iyer',
  'Novak',
];

/** The demo academy's directory, in the `atrium academy import` format. */
function directory() {
  const users = FIRST.map((firstname, i) => ({
    id: 2 + i,
    firstname,
    lastname: LAST[i] as string,
    email: `${firstname
      .toLowerCase()
      .normalize('NFD')
      .replace(/[^a-z]/g, '')}.${(LAST[i] as string).toLowerCase()}@demo-academy.example`,
    role: i < 2 ? 'instructor' : 'employee',
    hired_date: `20${String(15 + (i % 9)).padStart(2, '0')}-0${1 + (i % 9)}-15`,
    units: [{ id: 1 + (i % 3), name: ['Operations', 'Sales', 'Engineering'][i % 3] as string }],
    ...(i === 0
      ? {
          badges: [
            { id: 1, name: 'Fire warden', description: 'Completed fire safety essentials.', awardedDate: '2025-02-01' },
          ],
        }
      : {}),
  }));
  return {
    users,
    categories: [
      { id: 1, name: 'Health & Safety' },
      { id: 2, name: 'Leadership' },
      { id: 3, name: 'Compliance' },
      { id: 4, name: 'Product knowledge' },
    ],
    courses: [
      {
        id: 100,
        title: 'Fire safety essentials',
        description: 'Prevention, alarms and evacuation.',
        categoryIds: [1],
        language: 'en',
        lectures: [
          { id: 1, title: 'How fires start', type: 'video', duration: 12 },
          { id: 2, title: 'Alarms and evacuation', type: 'video', duration: 18 },
          { id: 3, title: 'Extinguishers', type: 'document', duration: 10 },
        ],
        exams: [{ id: 1, title: 'Fire safety quiz', passingScore: 80, questions: 15 }],
        skills: [{ id: 1, name: 'Emergency response' }],
        coupons: [{ id: 1, code: 'SAFETY2030', discount: 100, maxUses: 50, expiresDate: '2030-12-31' }],
        invitations: [{ id: 1, email: 'new.hire@demo-academy.example', sentDate: '2025-01-10', status: 'pending' }],
      },
      {
        id: 101,
        title: 'Leading remote teams',
        description: 'Rituals and feedback at a distance.',
        categoryIds: [2, 4],
      },
    ],
    curriculums: [
      { id: 200, title: 'New managers path', description: 'The first 90 days as a manager.', categoryId: 2 },
    ],
    content: [
      {
        id: 400,
        title: 'Evacuation map template',
        description: 'A printable floor plan with exits.',
        type_id: 2,
        sub_type_id: 3,
        categoryId: 1,
        tags: ['safety', 'template'],
        url: 'https://demo-academy.example/files/evacuation-map.pdf',
        time_added: '2025-01-15T09:00:00Z',
      },
      {
        id: 401,
        title: 'Giving feedback remotely',
        type_id: 1,
        sub_type_id: 1,
        categoryId: 2,
        tags: ['leadership'],
        url: 'https://demo-academy.example/articles/remote-feedback',
        time_added: '2025-02-03T14:30:00Z',
      },
    ],
    enrollments: [
      ...users.slice(0, 6).map((u, i) => ({
        userId: u.id,
        courseId: 100,
        enrolled_date: '2025-01-20',
        progress: i < 3 ? 100 : 20 * i,
        time_spent: 15 * (i + 1),
        ...(i < 3 ? { completion_date: '2025-02-01' } : {}),
        ...(i === 0 ? { couponId: 1 } : {}),
      })),
      { userId: 2, courseId: 101, enrolled_date: '2025-01-20', role: 'professor' as const },
      ...users.slice(2, 5).map((u, i) => ({
        userId: u.id,
        curriculumId: 200,
        enrolled_date: '2025-03-01',
        progress: 30 * i,
        ...(i === 0 ? { completion_date: '2025-04-15' } : {}),
      })),
    ],
    venues: [
      {
        id: 300,
        name: 'Athens Training Centre',
        seats: 30,
        address: 'Leof. Vasilissis Sofias 10',
        city: 'Athens',
        latitude: 37.9755,
        longitude: 23.7348,
      },
      {
        id: 301,
        name: 'Berlin Campus, Room 2',
        seats: 12,
        address: 'Friedrichstraße 100',
        city: 'Berlin',
        latitude: 52.52,
        longitude: 13.3883,
      },
    ],
  };
}

function usDate(epochMs: number): string {
  const d = new Date(epochMs);
  return `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}/${d.getUTCFullYear()}`;
}

const DAY = 86_400_000;
const time = (hours: number, meridian: 'AM' | 'PM', minutes = 0) => ({ hours, minutes, meridian });

/**
 * The demo academy: directory data and events of both kinds, past and
 * upcoming, bundled and not, with registrations and attendance. The events
 * are made once; later runs only add a key and refresh the directory.
 */
export async function seedAcademy(services: Services): Promise<{ acadId: number; apikey: string }> {
  const { acadId, apikey, superAdminId } = await services.academies.ensure(DEMO_ACADEMY_NAME);
  await services.directory.import(academyTenantId(acadId), directory());
  const ctx: AcademyContext = { academyId: academyTenantId(acadId), superAdminId };
  const existing = await services.events.list(ctx, 'ilt', { status: 'active', limit: 1 });
  const archived = await services.events.list(ctx, 'vc', { status: 'active', limit: 1 });
  if (existing.all + archived.all > 0) return { acadId, apikey };

  const now = services.clock.now();
  const athens = services.timezones.idOf('Europe/Athens') as number;
  const berlin = services.timezones.idOf('Europe/Berlin') as number;
  const make = async (kind: Kind, body: Record<string, unknown>) =>
    services.events.create(ctx, kind, body as unknown as EventBody);
  const day = (offsetDays: number, topic: string) => ({
    topic,
    date: usDate(now + offsetDays * DAY),
    from: time(9, 'AM'),
    to: time(5, 'PM'),
  });

  // Past events, with completed and absent participants: registered while registration was open.
  const pastIlt = await make('ilt', {
    title: 'Fire safety drill',
    description: 'Practical evacuation drill with the building wardens.',
    timezoneId: athens,
    registrationDeadline: 24,
    based: 2,
    courseId: 100,
    partOfCourse: true,
    autoApproved: true,
    attendees: 20,
    visible: true,
    days: [{ ...day(-30, 'Drill'), segments: [{ title: 'Briefing', from: time(9, 'AM'), to: time(10, 'AM') }] }],
    venue: 300,
    venueSeats: 30,
    customCalMessage: 'Wear comfortable shoes.',
  });
  const pastVc = await make('vc', {
    title: 'Compliance refresher (live)',
    description: 'Annual refresher on the code of conduct.',
    timeOffset: 1,
    registrationDeadline: 2,
    based: 2,
    categoryId: 3,
    autoApproved: true,
    visible: true,
    autoArchive: true,
    sessions: [{ topic: 'Refresher', date: usDate(now - 10 * DAY), from: time(2, 'PM'), to: time(3, 'PM', 30) }],
  });
  services.clock.set(now - 45 * DAY);
  try {
    await services.eventRegistrations.register(ctx, 'ilt', pastIlt.row.id, [2, 3, 4, 5, 6]);
    await services.eventRegistrations.register(ctx, 'vc', pastVc.row.id, [4, 5, 6, 7, 8, 9]);
  } finally {
    services.clock.reset();
  }
  for (const [userId, status, minutes] of [
    [2, 'completed', 480],
    [3, 'completed', 470],
    [4, 'absent', 0],
    [5, 'completed', 455],
  ] as const) {
    await services.eventRegistrations.updateRegistration(ctx, 'ilt', pastIlt.row.id, userId, {
      status,
      timeSpentInMinutes: minutes,
    });
  }
  for (const [userId, minutes] of [
    [4, 90],
    [5, 85],
    [6, 40],
  ] as const) {
    await services.eventRegistrations.updateRegistration(ctx, 'vc', pastVc.row.id, userId, {
      status: 'completed',
      timeSpentInMinutes: minutes,
    });
  }

  // Upcoming events: a bundle of in-class offers, a waiting list, and a virtual classroom series.
  const workshop = await make('ilt', {
    title: 'Leadership workshop',
    description: 'Two days on feedback, delegation and difficult conversations.',
    bundleTitle: 'Leadership workshop series',
    timezoneId: berlin,
    registrationDeadline: 48,
    based: 2,
    curriculumId: 200,
    partOfCurriculum: true,
    attendees: 3,
    blockReservations: true,
    visible: true,
    days: [day(14, 'Feedback and delegation'), day(15, 'Difficult conversations')],
    venue: 301,
    venueSeats: 12,
    schooxInstructors: [{ id: 2, isPrimary: true }, { id: 3 }],
    externalInstructors: [{ name: 'Dr. Ana Ruiz' }],
  });
  await services.eventOffers.convertToBundle(ctx, 'ilt', workshop.row.id, {
    canMulti: 'no',
    customOffers: [{ date: usDate(now + 28 * DAY) }, { date: usDate(now + 42 * DAY) }],
  });
  await services.eventRegistrations.register(ctx, 'ilt', workshop.row.id, [6, 7, 8, 9, 10]);

  const series = await make('vc', {
    title: 'Product knowledge webinar',
    description: 'What is new this quarter, with live questions.',
    timezoneId: athens,
    registrationDeadline: 1,
    based: 2,
    categoryId: 4,
    autoApproved: false,
    attendees: 100,
    visible: true,
    sessions: [{ topic: 'Quarterly update', date: usDate(now + 7 * DAY), from: time(11, 'AM'), to: time(12, 'PM') }],
  });
  await services.eventOffers.convertToBundle(ctx, 'vc', series.row.id, {
    canMulti: 'yes',
    mustRetake: true,
    retakeEvery: 3,
    customOffers: [{ date: usDate(now + 97 * DAY) }, { date: usDate(now + 187 * DAY) }],
  });
  await services.eventRegistrations.register(ctx, 'vc', series.row.id, [2, 3, 10, 11, 12, 13]);
  await services.eventRegistrations.updateRegistration(ctx, 'vc', series.row.id, 10, { status: 'approved' });

  await make('ilt', {
    title: 'First aid basics',
    description: 'By invitation: first-aid officers only.',
    timeOffset: 2,
    registrationDeadline: 72,
    based: 1,
    categoryId: 1,
    location: 'Piraeus port authority, Greece',
    marker: { coords: { latitude: 37.9429, longitude: 23.6466 } },
    days: [day(21, 'CPR and recovery position')],
  });
  return { acadId, apikey };
}
