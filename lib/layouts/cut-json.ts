/*
 * Reading a JSON object of which only the first bytes were read (a record or
 * payload cut at a read limit inside Redis): its top-level strings as far as
 * they go. marko's failed records and Laravel's trashed payloads are read so.
 */

/** A JSON string literal's text from its opening quote on, also when it was cut before its closing quote. */
export function jsonStringFrom(text: string): string {
  const match = /^"((?:[^"\\]|\\.)*)/.exec(text);
  if (!match) return '';
  // A cut literal may end inside an escape (`\`, `\u00`): drop the broken tail.
  const body = match[1]!.replace(/\\(u[0-9a-fA-F]{0,3})?$/, '');
  try {
    return JSON.parse(`"${body}"`) as string;
  } catch {
    return body;
  }
}

/**
 * A string of a JSON object cut at a byte limit: the first `"key": "` and
 * its (possibly cut) value. Inside a string every quote is escaped, so only
 * a key of the object (or of an object inside it) matches, never text.
 */
export function cutJsonString(head: string, key: string): string | undefined {
  const at = new RegExp(`"${key}"\\s*:\\s*(?=")`).exec(head);
  return at ? jsonStringFrom(head.slice(at.index + at[0].length)) : undefined;
}
