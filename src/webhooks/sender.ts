import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { guardedLookup } from './url.ts';
import { signatureHeader } from './sign.ts';

export interface WebhookAnswer {
  status: number;
}

const USER_AGENT = 'planner-webhooks/1';

/**
 * POSTs one signed delivery and resolves with the receiver's status (any status: the caller decides), or rejects
 * with a one-line reason (connection refused, time-out, internal address). Redirects are not followed: a 3xx is
 * an answer like any other that is not 2xx. The whole attempt is bounded by `timeoutMs`.
 */
export function postWebhook(
  target: { url: string; secret: string; allowInsecure: boolean },
  delivery: { id: number | string; eventId: string; type: string; payload: string },
  options: { timeoutMs: number; nowMs: number },
): Promise<WebhookAnswer> {
  const url = new URL(target.url);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'planner-event': delivery.type,
    'planner-event-id': delivery.eventId,
    'planner-delivery': String(delivery.id),
    'planner-signature': signatureHeader(target.secret, Math.floor(options.nowMs / 1000), delivery.payload),
    'content-length': String(Buffer.byteLength(delivery.payload)),
  };
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers, lookup: guardedLookup(target.allowInsecure), agent: false, signal: AbortSignal.timeout(options.timeoutMs) }, (res) => {
      res.resume(); // the body is not needed; reading it frees the socket
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
      res.on('error', (error) => reject(error));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      const reason =
        error.name === 'AbortError' || error.name === 'TimeoutError' ? `no answer within ${options.timeoutMs / 1000} s` : `${error.code ? `${error.code}: ` : ''}${error.message}`;
      reject(new Error(reason));
    });
    req.end(delivery.payload);
  });
}
