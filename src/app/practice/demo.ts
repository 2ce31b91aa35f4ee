import { DEMO } from '../../domain/demo.ts';
import type { AppContext } from '../context.ts';
import { switchApi } from './api.ts';
import { setHours } from './hours.ts';
import { initInstallation } from './init.ts';
import { addReason } from './reasons.ts';
import { addSchedule } from './schedules.ts';
import { rotateToken } from './token.ts';

/**
 * Creates the demo installation (a GP and a physiotherapy schedule, their reasons and weekday hours,
 * the default form fields), enables the API and returns the new token. Refuses an existing installation.
 */
export async function createDemo(ctx: AppContext): Promise<string> {
  ctx.store.tx(() => {
    initInstallation(ctx, DEMO.practice);
    for (const schedule of DEMO.schedules) {
      const id = addSchedule(ctx, { name: schedule.name, ...schedule.rules });
      for (const reason of schedule.reasons) addReason(ctx, id, reason);
      for (const [days, ranges] of schedule.hours) setHours(ctx, id, days, ranges);
    }
    switchApi(ctx, true);
  });
  return rotateToken(ctx);
}
