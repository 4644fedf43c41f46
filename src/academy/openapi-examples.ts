import type { DocumentExamples } from '../platform/http/openapi.js';

/**
 * Examples of the Academy API's main bodies in the OpenAPI document: by component schema (every response of that
 * schema shows it), and by operation for request bodies and particular responses.
 * Taken from a real exchange with the server (the README's walkthrough), with ids and times made fixed;
 * test/platform/openapi-document.test.ts validates each against the schema it illustrates.
 */
export const ACADEMY_EXAMPLES: DocumentExamples = {
  components: {
    AcademyEventDetail: {
      id: 1,
      picture: '',
      status: 'Upcoming',
      categoryIds: [-1],
      categoryId: -1,
      category: 'Without Category',
      visible: false,
      active: true,
      archived: false,
      deleted: false,
      canceled: false,
      upcoming: true,
      inProgress: false,
      completed: false,
      eventStartDate: '2031-06-15 07:00:00 UTC',
      eventEndDate: '2031-06-15 09:30:00 UTC',
      durationMinutes: 150,
      title: 'Onboarding live session',
      bundleTitle: '',
      description: 'Welcome to the team',
      timeOffset: 2,
      timezoneId: 0,
      timezone: '(GMT+02:00)',
      registrationDeadline: 24,
      sessions: [
        {
          topic: 'Welcome',
          date: '06/15/2031',
          dateUTC: '2031-06-15T00:00:00Z',
          from: '09:00 AM',
          to: '11:30 AM',
          fromTimestamp: 1939273200,
          toTimestamp: 1939282200,
          upcoming: 1,
          inProgress: 0,
          completed: 0,
        },
      ],
      registrationBased: true,
      invitationBased: false,
      autoApproved: false,
      canMulti: 0,
      canMultiReadable: 'Single event: not a bundle of offers.',
      retakeEvery: 0,
      maxAttendees: 20,
      seatsAvailable: 20,
      maxed: false,
      blockReservations: false,
      autoArchive: false,
      courseConnected: 0,
      curriculumConnected: 0,
      partOfCourse: false,
      partOfCurriculum: false,
      externalInstructors: [],
      schooxInstructors: ['1'],
      attendeesYes: 0,
      attendeesPending: 0,
      registered: 0,
      cancelled: 0,
      waitlisted: 0,
      customCalMessage: '',
      completionPercentage: 80,
      clientActivation: false,
      clientSessions: '',
    },
    AcademyError: {
      status: 404,
      code: 'not_found',
      message: 'event "999999" was not found',
    },
  },
  requests: {
    'POST /events/vc': {
      title: 'Onboarding live session',
      description: 'Welcome to the team',
      timeOffset: 2,
      registrationDeadline: 24,
      based: 2,
      sessions: [
        {
          topic: 'Welcome',
          date: '06/15/2031',
          from: {
            hours: 9,
            minutes: 0,
            meridian: 'AM',
          },
          to: {
            hours: 11,
            minutes: 30,
            meridian: 'AM',
          },
        },
      ],
    },
    'POST /events/vc/{eventid}/users': {
      userIds: [101, 102],
    },
    'POST /events/ilt/{eventid}/users': {
      userIds: [101, 102],
    },
  },
  responses: {
    'GET /events/vc': {
      '200': {
        all: 1,
        events: [
          {
            id: 1,
            title: 'Onboarding live session',
            description: 'Welcome to the team',
            attendeesNr: 2,
            status: 'Upcoming',
            local_start_date: '2031-06-15 09:00:00 GMT+2',
            local_end_date: '2031-06-15 11:30:00 GMT+2',
            event_start_date: '2031-06-15 07:00:00 UTC',
            event_end_date: '2031-06-15 09:30:00 UTC',
            timezone: '(GMT+02:00)',
            duration: 150,
            attendees_yes: 0,
            attendees_pending: 2,
            registered: 2,
            completed: 0,
            absent: 0,
            cancelled: 0,
            waitlisted: 0,
            available_seats: 18,
            curriculum_connected: 0,
            course_connected: 0,
            timeOffset: 2,
            attendance_duration: 0,
          },
        ],
      },
    },
    'POST /events/vc/{eventid}/users': {
      '201': {
        status: 201,
        message: 'Users registered.',
        registrations: [
          {
            userId: 101,
            approved: 'No',
            state: 'registered',
            timeSpentInMinutes: 0,
            certificate_date: null,
          },
          {
            userId: 102,
            approved: 'No',
            state: 'registered',
            timeSpentInMinutes: 0,
            certificate_date: null,
          },
        ],
      },
    },
    'POST /events/ilt/{eventid}/users': {
      '201': {
        status: 201,
        message: 'Users registered.',
        registrations: [
          {
            userId: 101,
            approved: 'No',
            state: 'registered',
            timeSpentInMinutes: 0,
            certificate_date: null,
          },
          {
            userId: 102,
            approved: 'No',
            state: 'registered',
            timeSpentInMinutes: 0,
            certificate_date: null,
          },
        ],
      },
    },
  },
};
