export type LogLevel = 'info' | 'warn' | 'error';

function serializable(value: unknown): unknown {
  if (value instanceof Error)
    return { name: value.name, message: value.message, stack: value.stack, ...(value.cause !== undefined ? { cause: serializable(value.cause) } : {}) };
  return value;
}

/**
 * One JSON line per event on stdout (errors on stderr), so a log collector
 * can parse what the server says without guessing at formats. Errors keep
 * their stack here; they never reach a browser. Plain TypeScript so that the
 * server's start-up code (instrumentation, where `server-only` cannot be
 * imported) logs the same way; app code imports it from lib/server/log.ts.
 */
export function logEvent(level: LogLevel, message: string, fields: Record<string, unknown> = {}): void {
  const entry: Record<string, unknown> = { time: new Date().toISOString(), level, message };
  for (const [key, value] of Object.entries(fields)) entry[key] = serializable(value);
  const line = JSON.stringify(entry);
  if (level === 'error') console.error(line);
  else console.log(line);
}
