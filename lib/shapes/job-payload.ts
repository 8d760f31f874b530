/** What a StaticPHP payload must be, for the driver, the CLI and the job page's editor alike. */

/**
 * Why `json` is no payload a PHP worker can run, or null when it is one: the
 * PHP driver decodes a payload to an array and fails anything else ("Payload
 * is not valid JSON…"), so it must be a JSON object or array.
 */
export function describeUnrunnablePayload(json: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return `is not valid JSON: ${json.length > 100 ? `${json.slice(0, 99)}…` : json}`;
  }
  if (typeof value === 'object' && value !== null) return null;
  return `must be a JSON object or array (a PHP worker decodes it to an array and fails anything else), got ${value === null ? 'null' : `a ${typeof value}`}`;
}
