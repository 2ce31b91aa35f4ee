import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/app/context.ts';
import { openContext, openRuntime, readRuntimeSettings } from '../../src/app/operations/runtime.ts';
import { switchApi } from '../../src/app/practice/api.ts';
import { initInstallation } from '../../src/app/practice/init.ts';
import { tempDb } from '../helpers.ts';

const NOW = new Date('2026-06-01T06:00:00Z');

describe('readRuntimeSettings', () => {
  it('takes the retry bases (30 s when unset) and the booking page form minimum (3 s when unset) from the environment', () => {
    expect(readRuntimeSettings({})).toEqual({
      mailRetry: { baseSeconds: 30 },
      webhookRetry: { baseSeconds: 30 },
      calendarRetry: { baseSeconds: 30 },
      formMinSeconds: 3,
    });
    expect(
      readRuntimeSettings({
        PLANNER_MAIL_RETRY_SECONDS: '0.2',
        PLANNER_WEBHOOK_RETRY_SECONDS: '1',
        PLANNER_CALENDAR_RETRY_SECONDS: '0.5',
        PLANNER_FORM_MIN_SECONDS: '0',
      }),
    ).toEqual({
      mailRetry: { baseSeconds: 0.2 },
      webhookRetry: { baseSeconds: 1 },
      calendarRetry: { baseSeconds: 0.5 },
      formMinSeconds: 0,
    });
  });

  it.each(['-1', '61', '2.5', 'soon'])('refuses PLANNER_FORM_MIN_SECONDS=%s with a message that names it', (value) => {
    expect(() => readRuntimeSettings({ PLANNER_FORM_MIN_SECONDS: value })).toThrow(
      'PLANNER_FORM_MIN_SECONDS must be a whole number of seconds from 0 to 60',
    );
  });

  it.each([
    ['PLANNER_MAIL_RETRY_SECONDS', '0'],
    ['PLANNER_MAIL_RETRY_SECONDS', 'soon'],
    ['PLANNER_WEBHOOK_RETRY_SECONDS', '-5'],
    ['PLANNER_CALENDAR_RETRY_SECONDS', '0'],
  ])('refuses %s=%s with a message that names it', (name, value) => {
    expect(() => readRuntimeSettings({ [name]: value })).toThrow(`${name} must be a positive number of seconds`);
  });
});

describe('startRuntime', () => {
  it('gives the use cases one context whose settings follow what another process writes, through one watch', async () => {
    const file = tempDb();
    const runtime = await openRuntime(file, { now: () => NOW, env: {} });
    expect(runtime.ctx.now()).toEqual(NOW);
    expect(runtime.ctx.settings().configuredAt).toBeNull();
    // Another process (here: another connection) completes the installation and enables the API.
    const cli = openContext(file, { mustExist: true });
    initInstallation(
      createContext(cli.store, () => NOW),
      { practiceName: 'P', timeZone: 'Europe/Berlin', notifyEmail: 'desk@p.example', locale: 'en' },
    );
    switchApi(cli, true);
    cli.store.close();
    expect(runtime.ctx.settings().configuredAt).toBeNull(); // cached until the next refresh (per request, per worker pass)
    const generation = runtime.watch.generation();
    expect(runtime.watch.refresh().apiEnabled).toBe(true);
    expect(runtime.ctx.settings()).toMatchObject({ practiceName: 'P', apiEnabled: true });
    expect(runtime.watch.generation()).toBeGreaterThan(generation);
    await runtime.stop();
    runtime.close();
  });

  it('refuses a bad environment at start, with the message of readRuntimeSettings', async () => {
    await expect(openRuntime(tempDb(), { env: { PLANNER_WEBHOOK_RETRY_SECONDS: '0' }, workers: true })).rejects.toThrow(
      'PLANNER_WEBHOOK_RETRY_SECONDS must be a positive number of seconds',
    );
  });
});
