import { readFileSync } from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import { APP_PORT } from './support';

export const ORIGIN = `http://127.0.0.1:${APP_PORT}`;

export interface ActionEntry {
  id: string;
  name: string;
  /** a page that renders it: an action is posted to a page that has it */
  page: string;
}

/** Every server action of the build, from Next's own manifest, so a new action cannot be left out. */
export function serverActions(): ActionEntry[] {
  const manifest = JSON.parse(readFileSync('.next/server/server-reference-manifest.json', 'utf8')) as {
    node: Record<string, { exportedName: string; workers: Record<string, unknown> }>;
  };
  return Object.entries(manifest.node).map(([id, entry]) => {
    const worker = Object.keys(entry.workers).find((name) => name !== 'app/_not-found/page') ?? 'app/page';
    const page = `/${worker.replace(/^app\//, '').replace(/\/?page$/, '')}`.replace('[queue]', 'q').replace('[id]', '1');
    return { id, name: entry.exportedName, page };
  });
}

/** A POST as the browser sends a server action, with whatever credentials and headers the test brings. */
export function postAction(request: APIRequestContext, action: ActionEntry, args: unknown[], headers: Record<string, string>) {
  return request.post(`${ORIGIN}${action.page}`, {
    headers: { 'next-action': action.id, 'content-type': 'text/plain;charset=UTF-8', accept: 'text/x-component', ...headers },
    data: JSON.stringify(args),
    maxRedirects: 0,
  });
}
