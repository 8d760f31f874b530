import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * Next.js' build manifest of server actions (`.next/server/server-reference-manifest.json`):
 * each action's id, and the pages ("workers", `app/login/page`) whose
 * bundle holds it. Next forwards an action posted to a page that does not
 * hold it to one that does, server to itself (lib/serving/request-gate.ts).
 */
const manifestSchema = z.object({
  node: z.record(z.string(), z.object({ workers: z.record(z.string(), z.unknown()) })),
});

function readActionsByPage(manifestPath: string): Map<string, Set<string>> | undefined {
  let manifest: z.output<typeof manifestSchema>;
  try {
    manifest = manifestSchema.parse(JSON.parse(readFileSync(manifestPath, 'utf8')));
  } catch {
    return undefined;
  }
  const byPage = new Map<string, Set<string>>();
  for (const [id, { workers }] of Object.entries(manifest.node)) {
    for (const page of Object.keys(workers)) byPage.set(page, (byPage.get(page) ?? new Set()).add(id));
  }
  return byPage;
}

/**
 * The ids of the server actions each page holds, read from the manifest at
 * `manifestPath` when first asked (again at every ask unless `once`: `next
 * dev` adds a page's actions as it compiles it); undefined while the
 * manifest cannot be read. A page the manifest names no action for holds none.
 */
export function pageActionsReader(manifestPath: string, { once }: { once: boolean }): (page: string) => ReadonlySet<string> | undefined {
  let byPage: Map<string, Set<string>> | undefined;
  return (page) => {
    if (!once || byPage === undefined) byPage = readActionsByPage(manifestPath);
    return byPage === undefined ? undefined : (byPage.get(page) ?? new Set());
  };
}
