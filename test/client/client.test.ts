import { readFileSync } from 'node:fs';
import createClient from 'openapi-fetch';
import { describe, expect, it } from 'vitest';
import { checkContract } from '../contract.ts';
import { bookableDb, serve, tempDb } from '../helpers.ts';
import { clientTypes } from './generate.ts';
import type { paths } from './planner-api.d.ts';

describe('a TypeScript client generated from the document (openapi-typescript + openapi-fetch)', () => {
  it('the committed types are what the current document generates (npm run openapi:client)', async () => {
    expect(readFileSync(new URL('./planner-api.d.ts', import.meta.url), 'utf8')).toBe(await clientTypes());
  });

  it('runs the six calls against a real server, typed end to end', async () => {
    const db = tempDb();
    const token = await bookableDb(db, { schedules: [{ stepMinutes: 15 }] });
    const server = await serve(db);
    const client = createClient<paths>({ baseUrl: `${server.url}/api`, headers: { Authorization: `Bearer ${token}` } });
    // Every answer also goes through the contract check.
    client.use({
      async onResponse({ request, response }) {
        const copy = response.clone();
        checkContract(request.method, request.url, {
          status: copy.status,
          headers: copy.headers,
          body: await copy.json(),
        });
        return response;
      },
    });

    const schedules = await client.GET('/schedules');
    const schedule = schedules.data!.data[0]!;
    expect(schedule.name).toBe('Dr. Weber');
    const reasons = await client.GET('/reasons', { params: { query: { schedule: schedule.id } } });
    const reason = reasons.data!.data[0]!;
    expect(reason.duration).toBe(1800);
    const days = await client.GET('/days', { params: { query: { schedule: schedule.id, reason: reason.id } } });
    const day = days.data!.data[1]!;
    const slots = await client.GET('/slots', { params: { query: { schedule: schedule.id, reason: reason.id, day } } });
    const slot = slots.data!.data[0]!;
    const form = await client.GET('/forms', { params: { query: { schedule: schedule.id, reason: reason.id, slot } } });
    const submission = Object.fromEntries(
      Object.entries(form.data!.data).map(([key, field]) => [
        key,
        field.input_type === 'email' ? 'ada@example.com' : field.required ? 'Ada' : '',
      ]),
    );
    const booked = await client.POST('/bookings', {
      body: { schedule: schedule.id, reason: reason.id, slot, submission },
    });
    expect(booked.response.status).toBe(201);
    expect(booked.data!.slot).toMatch(/Z$/);

    const again = await client.POST('/bookings', {
      body: { schedule: schedule.id, reason: reason.id, slot, submission },
    });
    expect(again.response.status).toBe(404);
    expect(again.error).toEqual({ error: 'Not Found' });
    const missing = await client.GET('/slots', {
      params: { query: { schedule: schedule.id, reason: reason.id, day: '2026-02-30' } },
    });
    expect(missing.error).toEqual({ error: 'Not Found' });
  });
});
