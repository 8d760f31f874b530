import 'server-only';
import type { Access } from '@/lib/auth/credentials';
import { trashSettingsFromEnv } from '@/lib/dashboard/trash-settings';
import type { TrashFilter, TrashPage, TrashWrite } from '@/lib/shapes/trash';
import type { Connection } from '@/lib/dashboard/connections';
import { isAbsent } from '@/lib/layouts/adapter';
import { getLayout, readCapability, type ReadResult } from './queue';

/** A forget or remove made through the dashboard, as the trash records it: who did it, kept as the environment says. */
export function dashboardTrashWrite(access: Access): TrashWrite {
  return { ...trashSettingsFromEnv(), who: access.who, via: 'dashboard' };
}

/** One page of the trash of the connection the request is for, newest first, narrowed by `filter`. */
export function readTrash(offset: number, limit: number, filter: TrashFilter): Promise<ReadResult<TrashPage>> {
  return readCapability('trash', (trash) => trash.list(trashSettingsFromEnv(), offset, limit, filter));
}

/** Whether a forget on `connection` keeps what it takes, so that the toast after it may offer Undo. */
export async function keepsTrash(connection: Connection, trash: TrashWrite): Promise<boolean> {
  return trash.keepSeconds > 0 && !isAbsent((await getLayout(connection)).trash);
}

/** The id a job removed from `queue` is listed under in the trash, for the toast's Undo; null when nothing was kept. */
export async function keptAs(connection: Connection, trash: TrashWrite, queue: string, id: string): Promise<string | null> {
  const bin = (await getLayout(connection)).trash;
  return trash.keepSeconds > 0 && !isAbsent(bin) ? bin.listedId(queue, id) : null;
}
