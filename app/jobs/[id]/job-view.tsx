'use client';

import Link from 'next/link';
import { DataTree } from '@/components/jobs/data-tree';
import { ErrorExcerpt } from '@/components/jobs/error-excerpt';
import { fieldAnchor, JobFields } from '@/components/jobs/job-fields';
import { JobLocationNote } from '@/components/jobs/job-location';
import { ChangeControls, useChangePermission } from '@/components/shell/change-permission';
import { LiveErrorBanner } from '@/components/live/live-error-banner';
import { useLiveQuery } from '@/components/live/use-live-query';
import { CopyButton } from '@/components/ui/copy-button';
import { JobElsewhereOffer } from '@/components/jobs/job-elsewhere';
import { Note } from '@/components/ui/note';
import { UtcMoment } from '@/components/ui/moment';
import { Section } from '@/components/ui/section';
import { sentence } from '@/components/ui/sentence';
import { isJobIdAcrossQueues, type JobHash, type JobIdAcrossQueues, type JobSnapshot, type LineRepairOffer } from '@/lib/layouts/pages';
import { jobSnapshotQuery } from '@/lib/queries/layout-pages';
import { PushJob } from '../../queues/[queue]/push-job';
import { RemoveJobButton } from '../../queues/[queue]/remove-job-button';
import { failedHref, findSearchHref, jobOfQueueHref, overviewHref, parseJobIdText, queueHref, reservationOfJobHref } from '@/lib/routes';
import { ReservationActions } from '@/app/reservations/reservation-actions';
import { FailedJobActions } from './failed-job-actions';
import { describeUnrunnablePayload } from '@/lib/shapes/job-payload';
import { JOB_HASH_RETRY } from '@/lib/shapes/job-hash';
import { ForgetFailedJob } from './forget-failed-job';
import { CopyJob } from './copy-job';
import type { SeenPlace } from '@/lib/shapes/job-location';

/** The facts a page gives of a job beside its data: label and value, as a description list. */
function Facts({ snapshot }: { snapshot: JobSnapshot }) {
  const facts: [string, string][] = [
    ['Queue', snapshot.queue],
    ['Class', snapshot.name ?? 'not known'],
    ['Attempts', String(snapshot.attempts)],
    ...(snapshot.priority === null
      ? []
      : [['Priority', `${snapshot.priority.value}${snapshot.priority.stored ? '' : ' (the default: none stored)'}`] as [string, string]]),
    ...(snapshot.ttr === undefined ? [] : [['TTR', snapshot.ttr === null ? 'none' : `${snapshot.ttr} s`] as [string, string]]),
    ...(snapshot.message?.parts.map(({ label, value }) => [label, value] as [string, string]) ?? []),
  ];
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 rounded-md border border-zinc-200 bg-white px-4 py-3 text-sm dark:border-zinc-800 dark:bg-zinc-900">
      {facts.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-zinc-500 dark:text-zinc-400">{label}</dt>
          <dd className="font-mono text-xs leading-5 [overflow-wrap:anywhere]">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Where({ snapshot }: { snapshot: JobSnapshot }) {
  return (
    <div className="space-y-1 rounded-md border border-zinc-200 bg-white px-4 py-3 text-sm dark:border-zinc-800 dark:bg-zinc-900">
      <p>
        <span className="font-semibold capitalize">{snapshot.status}</span>: {snapshot.statusText}.
      </p>
      {snapshot.places.length > 0 && (
        <ul className="list-disc pl-5">
          {snapshot.places.map((place) => (
            <li key={place.state}>
              {place.sentence}
              {place.at !== null && (
                <>
                  {' '}
                  <UtcMoment seconds={place.at} now={snapshot.now} />
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function fieldText(hash: JobHash, field: string): string | null {
  return hash.fields.find((candidate) => candidate.name === field)?.value.text ?? null;
}

/**
 * The payload's stored text where an edit can start from it: shown whole,
 * its bytes exactly its UTF-8 text (no \xNN stands in for a byte), and a
 * JSON object or array. Null otherwise: an edit would not start from what
 * is stored.
 */
function editablePayload(hash: JobHash): string | null {
  const payload = hash.fields.find((field) => field.name === 'payload')?.value;
  if (payload === undefined || payload.truncated || new TextEncoder().encode(payload.text).length !== payload.bytes) return null;
  return describeUnrunnablePayload(payload.text) === null ? payload.text : null;
}

/** The errors a job hash carries, first lines of each, for the top of its page: `error` once it failed, `last_error` whenever it has one. */
function ErrorExcerpts({ hash }: { hash: JobHash }) {
  const error = hash.location.state === 'failed' ? fieldText(hash, 'error') : null;
  const lastError = fieldText(hash, 'last_error');
  return (
    <>
      {error && <ErrorExcerpt label="Error" text={error} href={`#${fieldAnchor('error')}`} />}
      {lastError && lastError !== error && <ErrorExcerpt label="Last error" text={lastError} href={`#${fieldAnchor('last_error')}`} />}
    </>
  );
}

/** A reserved job's repairs, the reservations page's own, and a link to its holder's row there. */
function HeldJobControls({ id, hash }: { id: number; hash: JobHash }) {
  const { location } = hash;
  const queue = fieldText(hash, 'queue');
  if (location.state !== 'reserved' || !queue) return null;
  const held = { queue, level: location.level, entry: location.entry };
  return (
    <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-2">
      <ChangeControls>
        <ReservationActions
          row={{
            ...held,
            jobId: id,
            state: location.overdue ? 'overdue' : 'running',
            reservedBy: location.reservedBy,
            // As stored: the repair applies only while the hash still says exactly this.
            reservedUntil: fieldText(hash, 'reserved_until') ?? '',
            attempts: fieldText(hash, 'attempts'),
          }}
        />
      </ChangeControls>
      <Link prefetch={false} href={reservationOfJobHref(held)} className="text-sm text-blue-700 underline underline-offset-2 dark:text-blue-400">
        Its holder’s row in the reservations
      </Link>
    </div>
  );
}

/**
 * Where a job hash is now (with its errors' first lines), what can be done
 * about it (a failed job's retry and forget, a reserved one's release and
 * fail), and every field of the hash.
 */
function HashPanels({ snapshot, hash }: { snapshot: JobSnapshot; hash: JobHash }) {
  const id = Number(snapshot.id);
  return (
    <>
      <Section title="Where it is now">
        <JobLocationNote location={hash.location} now={snapshot.now}>
          <ErrorExcerpts hash={hash} />
        </JobLocationNote>
        {hash.location.state === 'failed' && (
          <ChangeControls>
            <FailedJobActions
              id={snapshot.id}
              whatItDoes={JOB_HASH_RETRY}
              offersMaxAttempts
              maxAttempts={fieldText(hash, 'max_attempts')}
              payload={editablePayload(hash)}
            />
          </ChangeControls>
        )}
        <HeldJobControls id={id} hash={hash} />
      </Section>
      <Section title="Fields" description="Every field of the job as stored (a Redis hash). Bytes that are not UTF-8 show as \xNN.">
        <JobFields detail={{ id, hash, now: snapshot.now }} />
      </Section>
    </>
  );
}

/** A job id on a layout that hands ids out in order, with nothing left of it: finished or forgotten, or an id never handed out. */
function GoneJob({ id, lastId }: { id: string; lastId: number }) {
  const neverExisted = Number(id) > lastId;
  return (
    <div className="rounded-md border border-dashed border-zinc-300 bg-white px-6 py-8 text-center dark:border-zinc-700 dark:bg-zinc-900">
      <p className="font-semibold">{neverExisted ? `No job ${id}: no such job was ever pushed.` : `Job ${id} is gone (finished or forgotten).`}</p>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
        {neverExisted
          ? `Ids are handed out in order, and the highest so far is ${lastId}. Check the id, or the connection the page shows.`
          : 'A job is deleted when it completes or is forgotten, so nothing of it is left to show.'}
      </p>
    </div>
  );
}

/** A job the layout keeps only as a failed record: when it failed, where the record is, and its Retry or the command that retries it. */
function FailedSnapshot({ snapshot, failed }: { snapshot: JobSnapshot; failed: NonNullable<JobSnapshot['failed']> }) {
  return (
    <Section title="It failed">
      <p className="text-sm">
        Failed <UtcMoment seconds={failed.at} now={snapshot.now} />: {snapshot.statusText}.{' '}
        <Link prefetch={false} href={failedHref} className="text-blue-700 underline underline-offset-2 dark:text-blue-400">
          The failed jobs
        </Link>{' '}
        list it.
      </p>
      {failed.error === null ? (
        <p className="text-sm">Its failed record is gone: no exception to show.</p>
      ) : (
        <figure className="space-y-1">
          <figcaption className="text-sm font-medium">Exception</figcaption>
          {/* Focusable, so a keyboard can scroll a long trace. */}
          <pre
            tabIndex={0}
            aria-label="Exception"
            className="max-h-60 overflow-auto rounded border border-zinc-200 bg-white px-3 py-2 font-mono text-xs whitespace-pre-wrap [overflow-wrap:anywhere] dark:border-zinc-800 dark:bg-zinc-900"
          >
            {failed.error === '' ? 'The record holds no exception.' : failed.error}
          </pre>
        </figure>
      )}
      {failed.retry.here ? (
        failed.error !== null && (
          <ChangeControls>
            <FailedJobActions
              id={snapshot.id}
              whatItDoes={failed.retry.whatItDoes}
              offersMaxAttempts={failed.retry.maxAttempts}
              maxAttempts={null}
              payload={null}
            />
          </ChangeControls>
        )
      ) : (
        <>
          <p className="text-sm">{sentence(failed.retry.why)}. For the same reason its payload cannot be edited here. Retry it where the application runs:</p>
          <div className="flex flex-wrap items-center gap-3">
            <code className="rounded bg-zinc-100 px-2 py-1 font-mono text-xs [overflow-wrap:anywhere] dark:bg-zinc-800">{failed.retry.command}</code>
            <CopyButton text={failed.retry.command} label="Copy retry command" />
          </div>
        </>
      )}
      {/* Where QueueLens retries it, its actions hold Forget too. */}
      {failed.error !== null && !failed.retry.here && (
        <ChangeControls>
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <p>Or, once it is no longer needed, take it out of the failed jobs:</p>
            <ForgetFailedJob id={snapshot.id} />
          </div>
        </ChangeControls>
      )}
    </Section>
  );
}

/** The job's figures and its message decoded as a tree. */
function JobMessage({ snapshot }: { snapshot: JobSnapshot }) {
  return (
    <>
      <Section title="The job">
        <Facts snapshot={snapshot} />
        {snapshot.message?.problem && <Note title="This message is malformed">{snapshot.message.problem}.</Note>}
        {snapshot.message?.notice && <Note title="Not verified">{snapshot.message.notice}</Note>}
      </Section>
      <Section
        title="Its data"
        description="Decoded as data, never instantiated: PHP types, the visibility of properties and class names. Bytes that are not UTF-8 show as \xNN."
      >
        {snapshot.message === null ? <p className="text-sm">Its message is gone: nothing to decode.</p> : <DataTree data={snapshot.message.data} />}
      </Section>
    </>
  );
}

/** A new job made from this one (its name, payload and max attempts, on its queue), where its payload can be copied exactly. */
function RunACopy({ snapshot, hash }: { snapshot: JobSnapshot; hash: JobHash }) {
  const payload = editablePayload(hash);
  const name = fieldText(hash, 'name');
  if (payload === null || name === null) return null;
  return (
    <Section title="Run a copy" description="Pushes a new job with a new id, from this one's name, payload and max attempts, each editable first.">
      <PushJob queue={snapshot.queue} start={{ name, payload, maxAttempts: fieldText(hash, 'max_attempts') ?? '3' }} label="Run a copy…" />
    </Section>
  );
}

/**
 * Run a copy… of a job on a layout whose jobs QueueLens does not push itself:
 * the layout's own copy (`copies` null), or its sentence for why it has none.
 */
function CopyOfJob({ snapshot, copies }: { snapshot: JobSnapshot; copies: string | null }) {
  if (copies !== null) {
    return (
      <Section title="Run a copy">
        <p className="text-sm">{sentence(copies)}.</p>
      </Section>
    );
  }
  if (snapshot.message === null) return null;
  return (
    <Section title="Run a copy" description="Runs a new job with a new id from this one's message, as the driver's own push writes one, optionally delayed.">
      <CopyJob
        queue={snapshot.queue}
        id={snapshot.id}
        near={snapshot.near}
        editable={snapshot.message.editable ?? null}
        asStored={snapshot.message.copiedAsStored ?? 'Its message is copied as stored'}
      />
    </Section>
  );
}

/** Removing the job, asked first (RemoveJobButton); the operator is then taken to its queue. */
function RemoveJob({ snapshot }: { snapshot: JobSnapshot }) {
  return (
    <Section
      title="Remove it"
      description="Takes the job out wherever it is, as the driver’s own remove does; kept in the trash where QueueLens keeps one for this layout."
    >
      {snapshot.unremovable === undefined ? (
        <RemoveJobButton queue={snapshot.queue} id={snapshot.id} near={snapshot.near} leaveTo={queueHref(snapshot.queue)} />
      ) : (
        <p className="text-sm">Not yet: {snapshot.unremovable}.</p>
      )}
    </Section>
  );
}

/**
 * A job the page's bounded look-up did not reach, so nothing of it was read:
 * no figures, data or removal to offer, only the way to Find, which looks
 * through the whole queue in steps.
 */
function UnsearchedJob({ snapshot }: { snapshot: JobSnapshot }) {
  const search = findSearchHref({ text: snapshot.id, field: 'id', queue: snapshot.queue, states: [] });
  return (
    <Section title="Where it is now">
      <Where snapshot={snapshot} />
      <p className="text-sm">
        Nothing of it was read, so there is nothing to show or change here.{' '}
        <Link prefetch={false} href={search} className="text-blue-700 underline underline-offset-2 dark:text-blue-400">
          Search its whole queue on Find
        </Link>
        : it looks at every job, in short steps.
      </p>
    </Section>
  );
}

/** An id asked for without its queue, on a connection whose queues each count their own ids: the queues holding it to pick from, or that none does. */
function QueuesHolding({ across }: { across: JobIdAcrossQueues }) {
  const { id, holders, searched } = across;
  if (holders.length === 0) {
    return (
      <div className="rounded-md border border-dashed border-zinc-300 bg-white px-6 py-8 text-center dark:border-zinc-700 dark:bg-zinc-900">
        <p className="font-semibold">No queue of this connection holds a job {id}.</p>
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400 [overflow-wrap:anywhere]">
          Looked in {searched.join(', ')}: it finished, was removed, or was never pushed.
        </p>
        <JobElsewhereOffer id={id} />
      </div>
    );
  }
  return (
    <Section
      title="In several queues"
      description={`Each queue counts its own job ids, and ${holders.length === searched.length ? `every queue of this connection holds a job ${id}` : `${holders.length} of the ${searched.length} queues of this connection hold a job ${id}`}: pick one.`}
    >
      <ul aria-label={`Queues holding a job ${id}`} className="list-disc space-y-1 pl-5 text-sm">
        {holders.map((holder) => (
          <li key={holder}>
            <Link
              prefetch={false}
              href={jobOfQueueHref(id, holder)}
              className="text-blue-700 underline-offset-2 hover:underline dark:text-blue-400 [overflow-wrap:anywhere]"
            >
              Job {id} of <span className="font-mono">{holder}</span>
            </Link>
          </li>
        ))}
      </ul>
    </Section>
  );
}

/**
 * One job, live: where it is, its figures, its message decoded as a tree
 * and (when the layout offers it) removing it; where the layout keeps the
 * job as a hash, the hash's fields and the driver's own actions for where
 * it is instead. Asked for without its queue on a connection of several,
 * the queues holding the id.
 */
export function JobView({
  id,
  queue,
  near,
  repairs,
  pushes,
  copies,
}: {
  id: string;
  queue?: string;
  /** where the page that linked here saw the job in its queue's list */
  near?: SeenPlace;
  repairs: LineRepairOffer;
  pushes: boolean;
  /** null where the layout runs a copy of a job (jobCopies), else why not */
  copies: string | null;
}) {
  const permission = useChangePermission();
  const mayChange = permission.allowed && repairs.remove === null;
  const view = useLiveQuery(jobSnapshotQuery(id, queue, near));
  const answer = view.data;
  const across = answer !== undefined && isJobIdAcrossQueues(answer) ? answer : null;
  const snapshot = answer === undefined || isJobIdAcrossQueues(answer) ? undefined : answer;
  const shownQueue = snapshot?.queue ?? queue;
  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <p className="text-sm">
          <Link
            prefetch={false}
            href={shownQueue ? queueHref(shownQueue) : overviewHref}
            className="text-blue-700 underline-offset-2 hover:underline dark:text-blue-400 [overflow-wrap:anywhere]"
          >
            <span aria-hidden="true">← </span>
            {shownQueue ? (
              <>
                Queue <span className="font-mono">{shownQueue}</span>
              </>
            ) : (
              'All queues'
            )}
          </Link>
        </p>
        <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">Job {id}</h1>
        {snapshot?.name && <p className="font-mono text-sm text-zinc-600 [overflow-wrap:anywhere] dark:text-zinc-400">{snapshot.name}</p>}
      </div>
      <LiveErrorBanner title={`Cannot read job ${id}`} view={view} />
      {across !== null ? (
        <QueuesHolding across={across} />
      ) : snapshot === undefined ? (
        view.isLoading && <p className="text-sm text-zinc-500 dark:text-zinc-400">Reading the job…</p>
      ) : snapshot.status === 'gone' && snapshot.lastId !== undefined ? (
        <GoneJob id={snapshot.id} lastId={snapshot.lastId} />
      ) : snapshot.hash ? (
        <>
          <HashPanels snapshot={snapshot} hash={snapshot.hash} />
          {permission.allowed && pushes && <RunACopy snapshot={snapshot} hash={snapshot.hash} />}
          {mayChange && <RemoveJob snapshot={snapshot} />}
        </>
      ) : snapshot.failed ? (
        <>
          <FailedSnapshot snapshot={snapshot} failed={snapshot.failed} />
          {snapshot.message !== null && <JobMessage snapshot={snapshot} />}
        </>
      ) : snapshot.status === 'gone' ? (
        <div className="rounded-md border border-dashed border-zinc-300 bg-white px-6 py-8 text-center dark:border-zinc-700 dark:bg-zinc-900">
          <p className="font-semibold [overflow-wrap:anywhere]">
            {snapshot.queue === '' ? `No job ${id} on this connection.` : `Job ${id} is not in ${snapshot.queue}.`}
          </p>
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{snapshot.statusText}.</p>
          <JobElsewhereOffer id={id} />
        </div>
      ) : snapshot.status === 'unsearched' && snapshot.message === null ? (
        <UnsearchedJob snapshot={snapshot} />
      ) : (
        <>
          <Section title="Where it is now">
            <Where snapshot={snapshot} />
          </Section>
          <JobMessage snapshot={snapshot} />
          {permission.allowed && <CopyOfJob snapshot={snapshot} copies={copies} />}
          {mayChange && <RemoveJob snapshot={snapshot} />}
        </>
      )}
    </div>
  );
}

/** A /jobs/ address whose last part is not a job id: `rule` says what one is on this connection. */
export function NotAJobId({ segment, rule }: { segment: string; rule: string }) {
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">Not a job id</h1>
      <p className="text-sm text-zinc-600 dark:text-zinc-400 [overflow-wrap:anywhere]">
        “<span className="font-mono">{segment}</span>” is not a job id: {rule}. Type one in “Go to job” above, or open a job from its queue.
      </p>
      {/* Another connection's id, in a link pasted from a tab that showed that connection. */}
      {parseJobIdText(segment) !== null && <JobElsewhereOffer id={segment} />}
    </div>
  );
}
