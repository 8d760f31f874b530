import 'server-only';
import type { Connection } from '@/lib/dashboard/connections';
import { isAbsent } from '@/lib/layouts/adapter';
import { absentCapabilityOf } from '@/lib/layouts/capabilities';
import { isJobIdAcrossQueues, isJobNotFound } from '@/lib/layouts/pages';
import { QueueError } from '@/lib/redis/errors';
import { jobHref, jobOfQueueHref } from '@/lib/routes';
import { namesOneJobAnywhere, type JobElsewhere, type JobElsewhereHolder } from '@/lib/shapes/job-elsewhere';
import { authenticate } from './access';
import { jobSnapshotKey } from './layout-pages';
import { capabilityOf, chooseConnection, connections, getLayout, sharedReadOn, type ReadResult } from './queue';

/** How long another connection may take to say whether it holds the job: one slower than that is named as unanswered, not waited for. */
const ELSEWHERE_ANSWER_MS = 2_000;

type Answer = { holder: JobElsewhereHolder } | { none: true } | { unanswered: string };

/**
 * The other connections holding a job with `id` (none for a whole number,
 * which each connection counts on its own), each asked as "Go to job"
 * asks its own (its layout's job snapshot, without a queue), all at once.
 * A connection whose layout reads no single job, or takes no id of this
 * form, holds none; one that cannot be reached or does not answer in
 * ELSEWHERE_ANSWER_MS is named.
 */
export async function readJobElsewhere(id: string): Promise<ReadResult<JobElsewhere>> {
  const allowed = await authenticate();
  if (!allowed.ok) return allowed;
  const choice = await chooseConnection();
  if (!choice.ok) return choice;
  const others = namesOneJobAnywhere(id) ? connections().filter((connection) => connection.name !== choice.connection.name) : [];
  const answers = await Promise.all(others.map((connection) => answerWithin(connection, id)));
  return {
    ok: true,
    data: {
      holders: answers.flatMap((answer) => ('holder' in answer ? [answer.holder] : [])),
      unanswered: answers.flatMap((answer) => ('unanswered' in answer ? [answer.unanswered] : [])),
    },
  };
}

function answerWithin(connection: Connection, id: string): Promise<Answer> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Answer>((resolve) => {
    timer = setTimeout(() => resolve({ unanswered: connection.label }), ELSEWHERE_ANSWER_MS);
  });
  return Promise.race([holdersOn(connection, id), late]).finally(() => clearTimeout(timer));
}

async function holdersOn(connection: Connection, id: string): Promise<Answer> {
  try {
    const snapshots = capabilityOf(await getLayout(connection), 'jobSnapshot');
    if (isAbsent(snapshots)) return { none: true };
    // The same look-up as that connection's own "Go to job" for this id: tabs asking at once (an id pasted in an incident channel) cost it one.
    const read = await sharedReadOn(connection, jobSnapshotKey(id), () => snapshots.read(id));
    if (isJobNotFound(read)) return { none: true };
    // StaticPHP numbers its jobs across the connection, and a record no queue names (a failed one) is found without one: the id alone opens it.
    const numbered = absentCapabilityOf(connection.layout, 'jobHashFields') === null;
    const jobOf = (queue: string) => (numbered || queue === '' ? { queue: null, href: jobHref(id) } : { queue, href: jobOfQueueHref(id, queue) });
    const jobs = isJobIdAcrossQueues(read) ? read.holders.map(jobOf) : [jobOf(read.queue)];
    return { holder: { connection: connection.name, label: connection.label, jobs } };
  } catch (error) {
    if (error instanceof QueueError && !error.unreachable) return { none: true };
    return { unanswered: connection.label };
  }
}
