import 'server-only';

type Level = 'info' | 'warn' | 'error';

function serializable(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack, ...(value.cause !== undefined ? { cause: serializable(value.cause) } : {}) };
  return value;
}

/**
 * One JSON line per event on stdout (errors on stderr), so a log collector
 * can parse what the server says without guessing at formats. Errors keep
 * their stack here; they never reach a browser.
 */
export function logEvent(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  const entry: Record<string, unknown> = { time: new Date().toISOString(), level, message };
  for (const [key, value] of Object.entries(fields)) entry[key] = serializable(value);
  const line = JSON.stringify(entry);
  if (level === 'error') console.error(line);
  else console.log(line);
}
