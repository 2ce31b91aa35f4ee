import type { Store } from './db.ts';
import { dueCondition, queueStates } from './queue.ts';

const queue = queueStates({ table: 'webhook_deliveries', done: 'delivered', doneAt: 'delivered_at' });

export const EVENT_TYPES = ['booking.created', 'booking.cancelled', 'booking.changed', 'customer.erased'] as const;
/** A new hook's events unless `--events` names others: `customer.erased` is opt-in. */
export const DEFAULT_EVENTS = ['booking.created', 'booking.cancelled', 'booking.changed'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface Webhook {
  id: number;
  url: string;
  secret: string;
  events: EventType[];
  includeCustomer: boolean;
  allowInsecure: boolean;
  createdAt: string;
}

export interface Delivery {
  id: number;
  webhookId: number;
  eventId: string;
  type: string;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number;
  retryFrom: number;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

interface WebhookRow {
  id: number;
  url: string;
  secret: string;
  events: string;
  include_customer: number;
  allow_insecure: number;
  created_at: string;
}

interface DeliveryRow {
  id: number;
  webhook_id: number;
  event_id: string;
  type: string;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: number;
  retry_from: number;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

const toWebhook = (row: WebhookRow): Webhook => ({
  id: row.id,
  url: row.url,
  secret: row.secret,
  events: row.events.split(',') as EventType[],
  includeCustomer: row.include_customer === 1,
  allowInsecure: row.allow_insecure === 1,
  createdAt: row.created_at,
});

const toDelivery = (row: DeliveryRow): Delivery => ({
  id: row.id,
  webhookId: row.webhook_id,
  eventId: row.event_id,
  type: row.type,
  payload: row.payload,
  status: row.status,
  attempts: row.attempts,
  nextAttemptAt: row.next_attempt_at,
  retryFrom: row.retry_from,
  lastError: row.last_error,
  createdAt: row.created_at,
  deliveredAt: row.delivered_at,
});

const HOOK_COLUMNS = 'id, url, secret, events, include_customer, allow_insecure, created_at';
const DELIVERY_COLUMNS =
  'id, webhook_id, event_id, type, payload, status, attempts, next_attempt_at, retry_from, last_error, created_at, delivered_at';

export function insertWebhook(store: Store, hook: Omit<Webhook, 'id'>): number {
  const result = store
    .sql(
      'INSERT INTO webhooks (url, secret, events, include_customer, allow_insecure, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    )
    .run(
      hook.url,
      hook.secret,
      hook.events.join(','),
      hook.includeCustomer ? 1 : 0,
      hook.allowInsecure ? 1 : 0,
      hook.createdAt,
    );
  return Number(result.lastInsertRowid);
}

export function listWebhooks(store: Store): Webhook[] {
  return (store.sql(`SELECT ${HOOK_COLUMNS} FROM webhooks ORDER BY id`).all() as unknown as WebhookRow[]).map(
    toWebhook,
  );
}

export function findWebhook(store: Store, id: number): Webhook | undefined {
  const row = store.sql(`SELECT ${HOOK_COLUMNS} FROM webhooks WHERE id = ?`).get(id);
  return row ? toWebhook(row as unknown as WebhookRow) : undefined;
}

/** Removes a hook and its deliveries (pending ones are dropped with it). Returns whether it existed. */
export function deleteWebhook(store: Store, id: number): boolean {
  return store.sql('DELETE FROM webhooks WHERE id = ?').run(id).changes === 1;
}

/** Adds one delivery of an event to a hook, due at once. Call inside the transaction that made the event. */
export function enqueueDelivery(
  store: Store,
  delivery: { webhookId: number; eventId: string; type: string; payload: string },
  nowAt: number,
  createdAt: string,
): void {
  store
    .sql(
      'INSERT INTO webhook_deliveries (webhook_id, event_id, type, payload, next_attempt_at, retry_from, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    )
    .run(delivery.webhookId, delivery.eventId, delivery.type, delivery.payload, nowAt, nowAt, createdAt);
}

/** Up to `limit` pending deliveries due at `nowAt` and not held by a sender, oldest first. */
export function dueDeliveries(store: Store, nowAt: number, limit: number): Delivery[] {
  return (
    store
      .sql(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d WHERE ${dueCondition('d')} ORDER BY id LIMIT ?`)
      .all(nowAt, nowAt, limit) as unknown as DeliveryRow[]
  ).map(toDelivery);
}

/** Takes a delivery for `until`; false when another sender holds it or it is no longer pending. */
export function claimDelivery(store: Store, id: number, nowAt: number, until: number): boolean {
  return queue.claim(store, id, nowAt, until);
}

export function markDelivered(store: Store, id: number, at: string): void {
  queue.done(store, id, at);
}

export function markDeliveryRetry(store: Store, id: number, error: string, nextAt: number): void {
  queue.retry(store, id, error, nextAt);
}

export function markDeliveryFailed(store: Store, id: number, error: string): void {
  queue.failed(store, id, error);
}

/** The latest deliveries (of every hook), newest first; only failed ones with `failedOnly`. */
export function listDeliveries(store: Store, options: { failedOnly: boolean; limit: number }): Delivery[] {
  const rows = options.failedOnly
    ? store
        .sql(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE status = 'failed' ORDER BY id DESC LIMIT ?`)
        .all(options.limit)
    : store.sql(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries ORDER BY id DESC LIMIT ?`).all(options.limit);
  return (rows as unknown as DeliveryRow[]).map(toDelivery);
}

export function findDelivery(store: Store, id: number): Delivery | undefined {
  const row = store.sql(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = ?`).get(id);
  return row ? toDelivery(row as unknown as DeliveryRow) : undefined;
}

/** Puts a delivery back in the queue, due at once, with a fresh retry period. */
export function requeueDelivery(store: Store, id: number, nowAt: number): void {
  queue.requeue(store, nowAt, 'id = ?', id);
}

/** Per hook: deliveries waiting, failed, and the last error of a delivery not yet delivered (for `planner status`). */
export function webhookHealth(
  store: Store,
): { webhookId: number; url: string; waiting: number; failed: number; retrying: number; lastError: string | null }[] {
  return store
    .sql(
      `SELECT w.id AS webhookId, w.url AS url,
              count(d.id) FILTER (WHERE d.status = 'pending') AS waiting,
              count(d.id) FILTER (WHERE d.status = 'failed') AS failed,
              count(d.id) FILTER (WHERE d.status = 'pending' AND d.attempts > 0) AS retrying,
              (SELECT last_error FROM webhook_deliveries e WHERE e.webhook_id = w.id AND e.status <> 'delivered' AND e.last_error IS NOT NULL ORDER BY e.id DESC LIMIT 1) AS lastError
       FROM webhooks w LEFT JOIN webhook_deliveries d ON d.webhook_id = w.id AND d.status <> 'delivered'
       GROUP BY w.id ORDER BY w.id`,
    )
    .all() as unknown as {
    webhookId: number;
    url: string;
    waiting: number;
    failed: number;
    retrying: number;
    lastError: string | null;
  }[];
}
