import { bytesToText } from '../../shapes/display-text';
import { parsePhpSerialized, phpClassName, type PhpParse } from '../php-serialized';

/**
 * Which serializer wrote a message, sniffed from its first bytes: Redis
 * keeps no note of it and the queue component's setting is not visible
 * (shared/spec/yii2-queue-redis-layout.md §1.1).
 */
export type Yii2Serializer = 'php' | 'json' | 'igbinary' | 'unknown';

/** What a message's body is, shown as its serializer allows. */
export type Yii2MessageBody =
  | { serializer: 'php'; parse: PhpParse }
  /** value is undefined when the JSON could not be read whole; error says why */
  | { serializer: 'json'; value: unknown; error: string | null }
  /** igbinary is not parsed: its first bytes in hex */
  | { serializer: 'igbinary'; hex: string; cut: boolean }
  | { serializer: 'unknown'; text: string; cut: boolean };

export interface Yii2Message {
  /** the stored value's length in bytes */
  length: number;
  /** only the first bytes were read (the body's error then says so) */
  cut: boolean;
  /** the TTR prefix in seconds; null when the message does not start with `<ttr>;` */
  ttr: number | null;
  /** why ttr is null, in words; null when there is one */
  ttrError: string | null;
  /** where the body starts, after the TTR prefix: the PHP parse's byte positions count from there */
  bodyOffset: number;
  /** the job's class: PHP's top object, JSON's "class" key; null when it cannot be told */
  className: string | null;
  body: Yii2MessageBody;
  /** the body as text where a copy may be edited (Run a copy): a JSON-serialized message read whole, naming its class, after its TTR prefix; null otherwise */
  editableBody: string | null;
}

/** A TTR has a few digits; a longer run before the first `;` is no TTR. */
const MAX_TTR_DIGITS = 20;
/** Bytes of a body shown as hex or text when it is neither PHP nor JSON. */
const RAW_SHOWN_BYTES = 1024;

const IGBINARY_HEADER = [0x00, 0x00, 0x00, 0x02];
/** PHP serialize() output opens with a type letter and a colon, or is `N;`. */
const PHP_START = /^(?:[bidsaOCERr]:|N;)/;

/** Why a message without its TTR prefix is trouble (spec §4.5, check 3), in the words a page shows. */
export const NO_TTR_PREFIX =
  "the message does not start with <ttr>; (a whole number of seconds and a semicolon): redis-ng's reserve fails after popping it, which leaves it an orphan, and the stock driver cannot unserialize it and deletes it as failed";

function sniff(body: Uint8Array): Yii2Serializer {
  if (IGBINARY_HEADER.every((byte, i) => body[i] === byte)) return 'igbinary';
  // Two bytes as text, without spreading a view: this runs for every message a search decodes.
  const start = String.fromCharCode(body[0] ?? 0, body[1] ?? 0);
  if (PHP_START.test(start)) return 'php';
  if (body[0] === 0x7b) return 'json';
  return 'unknown';
}

function hexOf(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join(' ');
}

/** JsonSerializer writes "class" first: a message read only in part still names its class. */
const LEADING_CLASS = /^\{\s*"class"\s*:\s*("(?:[^"\\]|\\.)*")/;

function jsonBody(
  body: Uint8Array,
  cut: boolean,
  length: number,
  bodyStart: number,
): { body: Yii2MessageBody; className: string | null; editableBody: string | null } {
  const text = bytesToText(body);
  let value: unknown;
  let error: string | null = null;
  if (cut) {
    error = `only the first ${bodyStart + body.length} of ${length} bytes were read: the JSON is not complete`;
  } else {
    try {
      value = JSON.parse(text);
    } catch (failure) {
      error = `not valid JSON: ${failure instanceof Error ? failure.message : String(failure)}`;
    }
  }
  let className: string | null = null;
  if (value !== undefined) {
    const named = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>).class : undefined;
    className = typeof named === 'string' ? named : null;
  } else {
    const leading = LEADING_CLASS.exec(text)?.[1];
    if (leading) className = JSON.parse(leading) as string;
  }
  // Editable only as its exact bytes: a body that is no UTF-8 shows \xNN, which an edit would store as text.
  const exact = bodyStart > 0 && className !== null && value !== undefined && Buffer.byteLength(text) === body.length;
  return { body: { serializer: 'json', value, error }, className, editableBody: exact ? text : null };
}

/** A message's TTR prefix, the body after it, and the serializer the body's first bytes tell. */
interface Framing {
  ttr: number | null;
  bodyStart: number;
  body: Uint8Array;
  serializer: Yii2Serializer;
}

/**
 * The TTR prefix's digits, undefined when there is none: both drivers split
 * a message at its first `;` and need a whole positive number before it
 * (`^[1-9][0-9]*;`). Read from the bytes, not from a copy as text: this runs
 * for every message a search decodes.
 */
function ttrDigits(bytes: Uint8Array): string | undefined {
  let end = 0;
  while (end < bytes.length && end <= MAX_TTR_DIGITS && bytes[end]! >= 0x30 && bytes[end]! <= 0x39) end++;
  if (end === 0 || end > MAX_TTR_DIGITS || bytes[end] !== 0x3b || bytes[0] === 0x30) return undefined;
  return String.fromCharCode(...bytes.subarray(0, end));
}

function framingOf(bytes: Uint8Array): Framing {
  const ttrText = ttrDigits(bytes);
  // Without a prefix the whole value is sniffed: an operator sees what is there.
  const bodyStart = ttrText === undefined ? 0 : ttrText.length + 1;
  const body = bytes.subarray(bodyStart);
  return { ttr: ttrText === undefined ? null : Number(ttrText), bodyStart, body, serializer: sniff(body) };
}

/** The class of a PHP serialization's top value: an object's or a custom serialization's. */
function topClassName(parse: PhpParse): string | null {
  const top = parse.value;
  return top?.type === 'object' || top?.type === 'custom' ? top.className : null;
}

/**
 * One message of `<ch>.messages` decoded for a page: its TTR prefix, the
 * serializer that wrote it, the job's class and its data as a tree. `bytes`
 * may be only the beginning of the stored value (the reads take a prefix
 * inside Redis) and `length` is the stored length, so a 20 MB message is
 * shown from its first bytes and said to be cut. Never throws and never
 * instantiates anything.
 */
export function decodeMessage(bytes: Uint8Array, length: number): Yii2Message {
  const cut = bytes.length < length;
  const { ttr, bodyStart, body, serializer } = framingOf(bytes);
  const common = { length, cut, ttr, ttrError: ttr === null ? NO_TTR_PREFIX : null, bodyOffset: bodyStart };
  switch (serializer) {
    case 'php': {
      const parse = parsePhpSerialized(body);
      return { ...common, className: topClassName(parse), body: { serializer, parse }, editableBody: null };
    }
    case 'json':
      return { ...common, ...jsonBody(body, cut, length, bodyStart) };
    case 'igbinary':
      return {
        ...common,
        className: null,
        body: { serializer, hex: hexOf(body.subarray(0, RAW_SHOWN_BYTES)), cut: cut || body.length > RAW_SHOWN_BYTES },
        editableBody: null,
      };
    default:
      return {
        ...common,
        className: null,
        body: { serializer, text: bytesToText(body.subarray(0, RAW_SHOWN_BYTES)), cut: cut || body.length > RAW_SHOWN_BYTES },
        editableBody: null,
      };
  }
}

export interface Yii2MessageOutline {
  ttr: number | null;
  className: string | null;
  /** the bytes after the TTR prefix */
  body: Uint8Array;
  /** a JSON body's value, when it was read whole and parsed; undefined otherwise */
  json: unknown;
}

/**
 * What decodeMessage tells of a message for a list row or a search, without
 * the tree a page shows: its TTR, its class, and the body's bytes (which
 * hold a PHP serialization's strings as they are).
 */
export function messageOutline(bytes: Uint8Array, length: number): Yii2MessageOutline {
  const { ttr, bodyStart, body, serializer } = framingOf(bytes);
  if (serializer === 'php') return { ttr, className: phpClassName(body), body, json: undefined };
  if (serializer !== 'json') return { ttr, className: null, body, json: undefined };
  const json = jsonBody(body, bytes.length < length, length, bodyStart);
  return { ttr, className: json.className, body, json: json.body.serializer === 'json' ? json.body.value : undefined };
}

/** What a list row shows of a job's message: its class and TTR from the first bytes, or that it is gone, or too large for a list to read. */
export interface Yii2MessageSummary {
  /** null when the channel has no message for the id */
  messageLength: number | null;
  /** the id is in an index but its message is gone: ng discards it silently, stock ends `queue/run` on it */
  dangling: boolean;
  /** the message is too large for a list to read inside Redis: class and TTR are null, the job's own page reads it */
  messageUnread: boolean;
  className: string | null;
  ttr: number | null;
}

/**
 * A summary from a message's first bytes and its stored length (-1 when
 * the message is gone, as the read scripts answer); `read` false when the
 * script left a message too large for a list unread.
 */
export function summarizeMessage(head: Uint8Array, length: number, read: boolean): Yii2MessageSummary {
  if (length < 0) return { messageLength: null, dangling: true, messageUnread: false, className: null, ttr: null };
  if (!read) return { messageLength: length, dangling: false, messageUnread: true, className: null, ttr: null };
  const { className, ttr } = messageOutline(head, length);
  return { messageLength: length, dangling: false, messageUnread: false, className, ttr };
}
