import { isJobIdAcrossQueues, type JobSnapshot, type JobSnapshotReader } from './pages';

/** A snapshot reader for tests that read jobs a queue named, or on a connection of one queue: it answers a snapshot, or throws. */
export function snapshotsOrThrow(reader: JobSnapshotReader): { read(id: string, queue?: string): Promise<JobSnapshot> } {
  return {
    async read(id, queue) {
      const answer = await reader.read(id, queue);
      if (isJobIdAcrossQueues(answer)) throw new Error(`job ${id} was looked up in ${answer.searched.join(', ')} and found in ${answer.holders.length}`);
      return answer;
    },
  };
}
