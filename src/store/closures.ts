import type { Store } from './db.ts';

/** Local days on which a schedule is closed, inclusive. */
export interface Closure {
  id: number;
  scheduleId: number;
  fromDay: string;
  toDay: string;
  note: string;
}

interface ClosureRow {
  id: number;
  schedule_id: number;
  from_day: string;
  to_day: string;
  note: string;
}

function toClosure(row: ClosureRow): Closure {
  return { id: row.id, scheduleId: row.schedule_id, fromDay: row.from_day, toDay: row.to_day, note: row.note };
}

/** Returns the closures of a schedule by first day. */
export function listClosures(store: Store, scheduleId: number): Closure[] {
  const rows = store
    .sql('SELECT id, schedule_id, from_day, to_day, note FROM closures WHERE schedule_id = ? ORDER BY from_day, id')
    .all(scheduleId);
  return (rows as unknown as ClosureRow[]).map(toClosure);
}

/** Returns the closure with `id`. */
export function findClosure(store: Store, id: number): Closure | undefined {
  const row = store.sql('SELECT id, schedule_id, from_day, to_day, note FROM closures WHERE id = ?').get(id);
  return row ? toClosure(row as unknown as ClosureRow) : undefined;
}

/** Inserts a closure and returns its id. */
export function insertClosure(store: Store, closure: Omit<Closure, 'id'>): number {
  const result = store
    .sql('INSERT INTO closures (schedule_id, from_day, to_day, note) VALUES (?, ?, ?, ?)')
    .run(closure.scheduleId, closure.fromDay, closure.toDay, closure.note);
  return Number(result.lastInsertRowid);
}

/** Deletes a closure. */
export function deleteClosure(store: Store, id: number): void {
  store.sql('DELETE FROM closures WHERE id = ?').run(id);
}
