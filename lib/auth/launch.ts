import { randomBytes } from 'node:crypto';
import { isLoopbackHost, readAccessSettings, startupRefusal } from './access-settings';

export type Launch = { ok: true; env: Record<string, string>; notice: string[] } | { ok: false; error: string };

/**
 * What a server about to listen on `host:port` needs, as Jupyter does it:
 * with no secret configured and a loopback address, a fresh secret and a
 * one-time login link for whoever started it; otherwise the configured
 * secrets, checked as the server will check them.
 */
export function prepareLaunch(env: Readonly<Record<string, string | undefined>>, host: string, port: number): Launch {
  const settings = readAccessSettings(env);
  if (settings.operatorSecret === undefined && settings.viewerSecret === undefined && isLoopbackHost(host)) {
    const secret = randomBytes(32).toString('base64url');
    const token = randomBytes(32).toString('base64url');
    const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    return {
      ok: true,
      env: { QUEUELENS_SECRET: secret, QUEUELENS_LOGIN_TOKEN: token },
      notice: [
        'No QUEUELENS_SECRET is set, so QueueLens made one for this run.',
        `Sign in (the link works once): ${origin}/login/link?token=${token}`,
        `Operator secret, for other browsers and Authorization: Bearer: ${secret}`,
      ],
    };
  }
  const refusal = startupRefusal(settings, host);
  return refusal === null ? { ok: true, env: {}, notice: [] } : { ok: false, error: refusal };
}
