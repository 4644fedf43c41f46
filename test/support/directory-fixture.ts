import type { DirectoryImport } from '../../src/academy/directory/import.js';

/**
 * A directory with everything the courses, curriculums, content and badges routes read: 150 users (more than one
 * page of 100), course 500 with every list and 130 students, curriculum 600 with students, content items.
 */
export function richDirectory(): DirectoryImport {
  const users = Array.from({ length: 150 }, (_, i) => ({
    id: i + 2,
    firstname: `First${i + 2}`,
    lastname: 'Student',
    email: `student${i + 2}@example.test`,
    external_id: `EXT-${i + 2}`,
  }));
  return {
    categories: [
      { id: 10, name: 'Safety' },
      { id: 11, name: 'Leadership' },
      { id: 12, name: 'Unused' },
    ],
    users: [
      {
        ...(users[0] as (typeof users)[number]),
        badges: [
          {
            id: 1,
            name: 'Fire warden',
            description: 'Passed the drill',
            image: 'https://example.test/b1.png',
            awardedDate: '2024-03-01',
          },
          { id: 2, name: 'Mentor' },
        ],
      },
      ...users.slice(1),
    ],
    courses: [
      {
        id: 500,
        title: 'Fire safety',
        categoryIds: [10],
        language: 'en',
        lectures: [
          { id: 1, title: 'Alarms', type: 'video', duration: 12 },
          { id: 2, title: 'Evacuation', type: 'document' },
        ],
        exams: [{ id: 5, title: 'Final', passingScore: 80, questions: 20 }],
        skills: [{ id: 7, name: 'First aid' }],
        coupons: [
          { id: 90, code: 'FREE', maxUses: 10, expiresDate: '2030-01-01' },
          { id: 91, code: 'HALF', discount: 50 },
        ],
        invitations: [{ id: 1, email: 'guest@example.test', sentDate: '2024-01-02', status: 'accepted' }],
      },
      { id: 501, title: 'Leading teams', categoryIds: [11], status: 'archived' },
      { id: 502, title: 'Orientation', categoryIds: [11, 10] },
    ],
    curriculums: [
      { id: 600, title: 'New managers', categoryId: 11 },
      { id: 601, title: 'Old path', status: 'archived' },
    ],
    content: Array.from({ length: 25 }, (_, i) => ({
      id: 800 + i,
      title: `Item ${String.fromCharCode(90 - i)}`,
      type_id: i % 2 === 0 ? 1 : 2,
      sub_type_id: 1 + (i % 11),
      ...(i < 3 ? { categoryId: 10, tags: ['Fire', 'drill'] } : {}),
      url: `https://example.test/item/${i}`,
      time_added: new Date(Date.UTC(2024, 0, 1 + i)).toISOString(),
    })),
    enrollments: [
      ...users.slice(0, 130).map((u, i) => ({
        userId: u.id,
        courseId: 500,
        enrolled_date: '2024-02-01',
        progress: i % 100,
        time_spent: i,
        ...(i < 5 ? { completion_date: '2024-02-10' } : {}),
        ...(i < 3 ? { couponId: 90 } : {}),
        ...(i === 129 ? { role: 'dropped_out' as const } : {}),
      })),
      { userId: 2, courseId: 502, enrolled_date: '2024-03-01', role: 'professor' },
      { userId: 2, courseId: 501, enrolled_date: '2024-03-01' },
      { userId: 2, curriculumId: 600, enrolled_date: '2024-01-05', progress: 40, time_spent: 90 },
      { userId: 3, curriculumId: 600, enrolled_date: '2024-01-05', completion_date: '2024-04-01' },
      { userId: 4, curriculumId: 600, enrolled_date: '2024-01-06' },
    ],
  };
}
