'use server';

import { cookies } from 'next/headers';
import { z } from 'zod';
import { CONNECTION_COOKIE } from '@/lib/queries/tab-connection';
import { authenticate, isHttpsRequest, isSameOriginRequest } from '@/lib/server/access';
import { connections } from '@/lib/server/queue';

// Every export of a 'use server' file is a public endpoint: only the header's switcher here.

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/** Makes `name` the connection every page of this browser shows; the caller reloads the page. */
export async function switchConnection(name: unknown): Promise<{ ok: true } | { ok: false; error: string }> {
  if (!(await isSameOriginRequest())) return { ok: false, error: 'The request did not come from this dashboard’s pages.' };
  const allowed = await authenticate();
  if (!allowed.ok) return { ok: false, error: allowed.error };
  const parsed = z.string().max(40).safeParse(name);
  const connection = parsed.success ? connections().find((candidate) => candidate.name === parsed.data) : undefined;
  if (!connection) return { ok: false, error: 'There is no such connection.' };
  const [cookieJar, secure] = await Promise.all([cookies(), isHttpsRequest()]);
  cookieJar.set(CONNECTION_COOKIE, connection.name, { httpOnly: true, sameSite: 'strict', secure, path: '/', maxAge: ONE_YEAR_SECONDS });
  return { ok: true };
}
