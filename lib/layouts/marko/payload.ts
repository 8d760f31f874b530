/**
 * marko/queue's signed payload (JobEnvelope): `<64 hex HMAC-SHA256>.b64:<base64
 * of the PHP serialization>`, or in older releases `<hmac>.<serialization>`
 * as raw bytes. See shared/spec/marko-queue-redis-layout.md §1.2.
 */

/** What a page says beside every decoded payload. */
export const UNVERIFIED_SIGNATURE = "The signature cannot be checked without the application's encryption.key: the payload is shown as stored, unverified.";

export interface SignedPayload {
  /** the HMAC as stored, 64 lowercase hex digits */
  signature: string;
  /** `b64`: the serialization is base64 after `b64:`; `raw`: the older un-encoded format */
  encoding: 'b64' | 'raw';
  /** the PHP serialization of the job, as far as the bytes read reach */
  serialized: Buffer;
  /** the value was read only in part, so `serialized` stops before the end */
  truncated: boolean;
}

const SIGNATURE = /^[0-9a-f]{64}\./;
const BASE64_MARK = 'b64:';

/**
 * Splits a stored payload into its parts, or null when it is no signed
 * payload. `storedLength` is the value's whole length when `bytes` is only
 * its first part.
 */
export function splitSignedPayload(bytes: Buffer, storedLength = bytes.length): SignedPayload | null {
  const head = bytes.subarray(0, 65).toString('latin1');
  if (!SIGNATURE.test(head)) return null;
  const truncated = storedLength > bytes.length;
  const rest = bytes.subarray(65);
  if (rest.subarray(0, BASE64_MARK.length).toString('latin1') !== BASE64_MARK) {
    return { signature: head.slice(0, 64), encoding: 'raw', serialized: rest, truncated };
  }
  let encoded = rest.subarray(BASE64_MARK.length).toString('latin1');
  // A cut value ends mid-quantum: decode only whole 4-character groups.
  if (truncated) encoded = encoded.slice(0, encoded.length - (encoded.length % 4));
  return { signature: head.slice(0, 64), encoding: 'b64', serialized: Buffer.from(encoded, 'base64'), truncated };
}

const OBJECT_HEAD = /^O:\d+:"([^"]*)"/;
// The placeholder a failed job whose object could not be serialized is stored with: an array holding class and serialization_error.
const PLACEHOLDER_HEAD = /^a:\d+:\{s:5:"class";s:\d+:"([^"]*)"/;

/** The job's class as the serialization names it first, and whether it is the could-not-serialize placeholder; null when neither shape. */
export function jobClassOf(serialized: Buffer): { className: string; placeholder: boolean } | null {
  const head = serialized.subarray(0, 1024).toString('utf8');
  const object = OBJECT_HEAD.exec(head);
  if (object) return { className: object[1]!, placeholder: false };
  const placeholder = PLACEHOLDER_HEAD.exec(head);
  return placeholder ? { className: placeholder[1]!, placeholder: true } : null;
}

/** The class of a stored payload, '' when it is not a signed PHP object. */
export function payloadClassName(bytes: Buffer, storedLength = bytes.length): string {
  const payload = splitSignedPayload(bytes, storedLength);
  return (payload && jobClassOf(payload.serialized)?.className) ?? '';
}
