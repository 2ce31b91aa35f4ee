import { failureLine, OutboundError, openSession, send } from '../outbound/request.ts';
import { signatureHeader } from './sign.ts';

export interface WebhookAnswer {
  status: number;
}

const USER_AGENT = 'planner-webhooks/1';

/**
 * POSTs one signed delivery and resolves with the receiver's status (any status: the caller decides), or rejects
 * with a one-line reason (connection refused, time-out, internal address). Redirects are not followed: a 3xx is
 * an answer like any other that is not 2xx. The whole attempt is bounded by `timeoutMs`, as every outbound request
 * is (src/outbound/request.ts); the answer's body is read and dropped.
 */
export async function postWebhook(
  target: { url: string; secret: string; allowInsecure: boolean },
  delivery: { id: number | string; eventId: string; type: string; payload: string },
  options: { timeoutMs: number; nowMs: number },
): Promise<WebhookAnswer> {
  const headers = {
    'content-type': 'application/json',
    'planner-event': delivery.type,
    'planner-event-id': delivery.eventId,
    'planner-delivery': String(delivery.id),
    'planner-signature': signatureHeader(target.secret, Math.floor(options.nowMs / 1000), delivery.payload),
  };
  const session = openSession(
    { url: target.url, allowInsecure: target.allowInsecure },
    { timeoutMs: options.timeoutMs, maxBytes: 0, maxRedirects: 0 },
    USER_AGENT,
    (url) => url,
  );
  try {
    const answer = await send(session, 'POST', target.url, headers, delivery.payload);
    return { status: answer.status };
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    throw new Error(failureLine(error.failure, new URL(target.url).host, session.limits, 'an answer'));
  }
}
