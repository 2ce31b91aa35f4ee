import type { AppContext } from './context.ts';
import { setHours } from './hours.ts';
import { initInstallation, switchApi } from './installation.ts';
import { addReason } from './reasons.ts';
import { addSchedule } from './schedules.ts';
import { rotateToken } from './token.ts';

/**
 * Creates the demo installation (a GP and a physiotherapy schedule, their reasons and weekday hours,
 * the default form fields), enables the API and returns the new token. Refuses an existing installation.
 */
export async function createDemo(ctx: AppContext): Promise<string> {
  ctx.store.tx(() => {
    initInstallation(ctx, {
      practiceName: 'Demo Practice',
      timeZone: 'Europe/Berlin',
      notifyEmail: 'desk@demo-practice.example',
      locale: 'en',
    });
    const doctor = addSchedule(ctx, { name: 'Dr. Anna Weber', daysAhead: 60, noticeMinutes: 60, stepMinutes: 15, capacity: 1 });
    addReason(ctx, doctor, { name: 'Consultation', durationMinutes: 15, description: 'A short visit about one concern.' });
    addReason(ctx, doctor, { name: 'Check-up', durationMinutes: 30, description: 'Routine health check.' });
    addReason(ctx, doctor, { name: 'Vaccination', durationMinutes: 15 });
    setHours(ctx, doctor, 'mon-thu', '08:00-12:00,14:00-18:00');
    setHours(ctx, doctor, 'fri', '08:00-13:00');
    const physio = addSchedule(ctx, { name: 'Physiotherapy', daysAhead: 90, noticeMinutes: 120, stepMinutes: 30, capacity: 2 });
    addReason(ctx, physio, { name: 'Physiotherapy session', durationMinutes: 30 });
    addReason(ctx, physio, { name: 'Manual therapy', durationMinutes: 60, description: 'Hands-on treatment of joints and muscles.' });
    setHours(ctx, physio, 'mon-thu', '09:00-17:00');
    setHours(ctx, physio, 'sat', '09:00-12:00');
    switchApi(ctx, true);
  });
  return rotateToken(ctx);
}
