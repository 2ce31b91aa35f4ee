/**
 * A WebDAV multistatus answer (RFC 4918 §13, a PROPFIND's or a CalDAV REPORT's 207) read for what planner needs:
 * each `response` with its own `status`, and each `propstat` with its `status` and the text and child elements of
 * its properties. Read by saxes, a streaming XML parser (the one jsdom uses): linear in the answer's length whatever
 * it holds (a regular expression over unclosed elements was quadratic: 900 KiB of `<cs:getctag>` held the
 * server 11–13 s), no DTD and no entity but XML's own five (an answer that declares one fails, so no expansion
 * bomb), and fed a slice at a time with a turn of the event loop between slices. Elements are matched by their local
 * name whatever their prefix (servers write `d:`, `D:`, `cal:`, `C:` or none).
 */
import { SaxesParser } from 'saxes';

/** One property of a propstat: its text (character data and CDATA) and the local names of its child elements. */
export interface DavProperty {
  text: string;
  children: string[];
}

export interface DavPropstat {
  /** The code of its `<status>` (`HTTP/1.1 403 Forbidden` → 403), undefined when it has none. */
  status: number | undefined;
  /** Its properties by local name; a property given twice keeps each value. */
  props: Map<string, DavProperty[]>;
}

export interface DavResponse {
  href: string;
  /** The code of the response's own `<status>` (not a propstat's). */
  status: number | undefined;
  propstats: DavPropstat[];
}

/** An answer that is not XML planner can read: one line, never the answer's text. */
export class MultistatusError extends Error {}

/** The deepest a multistatus answer's elements may nest (a CalDAV answer needs 7): deeper is no answer of a calendar. */
const MAX_DEPTH = 32;
/** How much of the answer is parsed between two turns of the event loop (a slice takes about a millisecond). */
const SLICE_CHARS = 64 * 1024;

/** The code of a status line (`HTTP/1.1 207 Multi-Status` → 207). */
function statusCode(text: string): number | undefined {
  const code = /HTTP\/\d(?:\.\d)?\s+(\d{3})/.exec(text)?.[1];
  return code ? Number(code) : undefined;
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return (colon < 0 ? name : name.slice(colon + 1)).toLowerCase();
}

/**
 * Reads a multistatus answer into its responses, giving the event loop a turn between slices of SLICE_CHARS.
 * Rejects with a MultistatusError when the answer is not well-formed XML.
 */
export async function readMultistatus(xml: string, turn: () => Promise<void>): Promise<DavResponse[]> {
  const parser = new SaxesParser({ position: false });
  const responses: DavResponse[] = [];
  const path: string[] = []; // the open elements' local names
  let response: DavResponse | undefined;
  let propstat: DavPropstat | undefined;
  let property: DavProperty | undefined;
  let text: string[] | undefined; // the character data being collected (a property's, an href's, a status's)
  let failed: Error | undefined;

  parser.on('error', (error) => void (failed ??= error));
  parser.on('doctype', () => void (failed ??= new Error('it declares a DTD')));
  parser.on('opentag', (tag) => {
    const name = localName(tag.name);
    const parent = path.at(-1);
    path.push(name);
    if (path.length > MAX_DEPTH) failed ??= new Error(`elements nested more than ${MAX_DEPTH} deep`);
    if (path.length === RESPONSE && name === 'response' && parent === 'multistatus') {
      responses.push((response = { href: '', status: undefined, propstats: [] }));
    } else if (response && path.length === PROPSTAT && name === 'propstat') {
      response.propstats.push((propstat = { status: undefined, props: new Map() }));
    } else if (propstat && path.length === PROPERTY && parent === 'prop') {
      property = { text: '', children: [] };
      propstat.props.set(name, [...(propstat.props.get(name) ?? []), property]);
      text = [];
    } else if (property && path.length === PROPERTY + 1) {
      property.children.push(name);
    } else if (
      response &&
      ((path.length === PROPSTAT && (name === 'href' || name === 'status')) ||
        (propstat && path.length === PROPSTAT + 1 && name === 'status'))
    ) {
      text = [];
    }
  });
  const append = (data: string) => {
    if (text && (property === undefined || path.length === PROPERTY)) text.push(data);
  };
  parser.on('text', append);
  parser.on('cdata', append);
  parser.on('closetag', (tag) => {
    const name = localName(tag.name);
    const depth = path.length;
    if (property && depth === PROPERTY) {
      property.text = text!.join('');
      property = undefined;
      text = undefined;
    } else if (text && response && name === 'href' && depth === PROPSTAT) {
      response.href = text.join('').trim();
      text = undefined;
    } else if (text && response && name === 'status') {
      if (depth === PROPSTAT) response.status = statusCode(text.join(''));
      else if (propstat) propstat.status = statusCode(text.join(''));
      text = undefined;
    } else if (depth === PROPSTAT && name === 'propstat') {
      propstat = undefined;
    } else if (depth === RESPONSE) {
      response = undefined;
    }
    path.pop();
  });

  for (let at = 0; at < xml.length && !failed; at += SLICE_CHARS) {
    parser.write(xml.slice(at, at + SLICE_CHARS));
    if (at + SLICE_CHARS < xml.length) await turn();
  }
  if (!failed) parser.close();
  if (failed)
    throw new MultistatusError(
      `its answer is not XML planner can read (${String(failed.message)
        .split('\n', 1)[0]!
        .replace(/^undefined:\s*/, '')})`,
    );
  return responses;
}

/** The depths of the elements read: multistatus (1) > response (2) > propstat, href, status (3) > prop, status (4) > a property (5). */
const RESPONSE = 2;
const PROPSTAT = 3;
const PROPERTY = 5;
