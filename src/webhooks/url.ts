/**
 * A webhook's URL as `planner webhook add` takes it: the outbound address policy (src/outbound/address.ts) in the
 * webhooks' words.
 */
import { invalid } from '../errors.ts';
import { checkOutboundUrl } from '../outbound/address.ts';

const WEBHOOK_WORDS = { what: 'a webhook URL', schemes: 'https://', login: 'the signature authenticates planner' };

/**
 * Checks a webhook URL as given to `planner webhook add`: http(s) only, no credentials; plain http, `localhost`
 * and internal IP literals only with `allowInsecure`. Names are checked again at each delivery, after DNS.
 */
export function checkWebhookUrl(text: string, allowInsecure: boolean): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(`"${text}" is not a URL: give the full address, e.g. https://example.com/planner-hook`);
  }
  return checkOutboundUrl(url, allowInsecure, WEBHOOK_WORDS).toString();
}
