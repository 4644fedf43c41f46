import type { Generated } from 'kysely';

/** Column types of this resource's tables, as Kysely sees them (instants in epoch ms, booleans as 0/1). */

export interface AcademyEventsTable {
  id: Generated<number>;
  academy_id: number;
  kind: 'ilt' | 'vc';
  title: string;
  description: string;
  bundle_title: string | null;
  picture: string | null;
  time_offset: number | null;
  timezone_id: number | null;
  registration_deadline: number;
  based: number;
  auto_approved: number;
  max_attendees: number;
  block_reservations: number;
  visible: number;
  category_id: number | null;
  course_id: number | null;
  curriculum_id: number | null;
  part_of_course: number;
  part_of_curriculum: number;
  custom_cal_message: string | null;
  auto_archive: number;
  passing_score: number;
  completion_percentage: number;
  venue_id: number | null;
  venue_seats: number | null;
  location: string | null;
  latitude: number | null;
  longitude: number | null;
  canceled: number;
  /** JSON array of stored sessions (local date, minutes from midnight, segments). */
  sessions: string;
  /** JSON array of names. */
  external_instructors: string;
  /** The bundle's main event (itself for the main event); null when not bundled. */
  bundle_id: number | null;
  can_multi: 'no' | 'yes' | 'all' | null;
  must_retake: number;
  retake_every: number;
  start_at: number;
  end_at: number;
  created_at: number;
  updated_at: number;
}
export interface AcademyEventInstructorsTable {
  event_id: number;
  user_id: number;
  is_primary: number;
  position: number;
}
export interface AcademyRegistrationsTable {
  event_id: number;
  user_id: number;
  approval: 'Yes' | 'Pending';
  state: 'registered' | 'waitlisted' | 'cancelled' | 'absent' | 'completed';
  attendance_minutes: number;
  registered_at: number;
  completed_at: number | null;
  updated_at: number;
}

declare module '../../platform/db/schema.js' {
  interface Tables {
    academy_events: AcademyEventsTable;
    academy_event_instructors: AcademyEventInstructorsTable;
    academy_registrations: AcademyRegistrationsTable;
  }
}
