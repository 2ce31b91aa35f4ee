/** The demo installation's data (`planner demo` creates it; app/practice/demo.ts). Pure data. */

/** The demo installation, also the source of the OpenAPI document's examples. */
export const DEMO = {
  practice: {
    practiceName: 'Demo Practice',
    timeZone: 'Europe/Berlin',
    notifyEmail: 'desk@demo-practice.example',
    locale: 'en',
  },
  schedules: [
    {
      name: 'Dr. Anna Weber',
      rules: { daysAhead: 60, noticeMinutes: 60, stepMinutes: 15, capacity: 1 },
      reasons: [
        { name: 'Consultation', durationMinutes: 15, description: 'A short visit about one concern.' },
        { name: 'Check-up', durationMinutes: 30, description: 'Routine health check.' },
        { name: 'Vaccination', durationMinutes: 15, description: '' },
      ],
      hours: [
        ['mon-thu', '08:00-12:00,14:00-18:00'],
        ['fri', '08:00-13:00'],
      ],
    },
    {
      name: 'Physiotherapy',
      rules: { daysAhead: 90, noticeMinutes: 120, stepMinutes: 30, capacity: 2 },
      reasons: [
        { name: 'Physiotherapy session', durationMinutes: 30, description: '' },
        { name: 'Manual therapy', durationMinutes: 60, description: 'Hands-on treatment of joints and muscles.' },
      ],
      hours: [
        ['mon-thu', '09:00-17:00'],
        ['sat', '09:00-12:00'],
      ],
    },
  ],
} as const;
