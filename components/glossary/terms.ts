/**
 * The words the dashboard uses for what a queue's jobs go through, each
 * defined once. The pages say things in these words and link here where one
 * is needed; `/glossary` shows them and docs/glossary.md is written from
 * them (glossary-doc.test.ts keeps the two the same).
 */
export interface GlossaryTerm {
  /** the word as the pages write it; also the anchor `/glossary#<id>` */
  term: string;
  id: string;
  definition: string;
}

export const GLOSSARY: readonly GlossaryTerm[] = [
  {
    term: 'Pending',
    id: 'pending',
    definition:
      'Ready to run and not handed to a worker yet: waiting in its level, or delayed with its time come (due) but not yet moved into its level. The queue page counts both, so it can say "9 pending" while no job waits in a level.',
  },
  {
    term: 'Level',
    id: 'level',
    definition:
      'A priority. Each queue keeps one line of waiting jobs per priority level; workers take from the highest level first, and within a level the oldest job first.',
  },
  {
    term: 'Delayed',
    id: 'delayed',
    definition: 'Pushed with a delay, or released to be retried later: the job waits for its time. Once that time has passed it is due.',
  },
  {
    term: 'Due',
    id: 'due',
    definition:
      'A delayed job whose time has passed. Nothing moves it on its own: the next worker that takes a job from its queue first moves the due jobs into their levels. The delayed page can do that without a worker ("Move due jobs now"). Until then the pages call it due, not moved: it counts as pending on the overview and still sits in the delayed set.',
  },
  {
    term: 'Reserved',
    id: 'reserved',
    definition: 'Handed to a worker and not finished yet. Each such job is a reservation.',
  },
  {
    term: 'Reservation',
    id: 'reservation',
    definition:
      'One job handed to one worker: who holds it (the holder), since when, how many times it was handed out, and until when the worker may run it (its claim). It ends when the worker finishes, fails or releases the job.',
  },
  {
    term: 'Claim',
    id: 'claim',
    definition:
      'How long a worker may run a job it was handed before another worker may take it back: its deadline is the moment of the hand-out plus the worker\'s timeout. A claim "runs out" at that deadline.',
  },
  {
    term: 'Holder',
    id: 'holder',
    definition: 'The worker holding a job, named by its host and process id (host:pid), as the worker wrote it when it took the job.',
  },
  {
    term: 'Overdue',
    id: 'overdue',
    definition:
      'A reserved job whose claim ran out and that no worker has taken back yet. It still counts as reserved; the next worker that takes a job from its queue takes it back and runs it again. Its holder has most likely stopped.',
  },
  {
    term: 'Parked',
    id: 'parked',
    definition:
      "A job set aside until its holder's deadline. A worker using a shorter timeout than the holder tried to take it back while the holder's claim was still running; rather than run it a second time, it put the job with the delayed jobs until that deadline. It runs once the deadline passes. Parking is not an attempt.",
  },
  {
    term: 'Job gone',
    id: 'job-gone',
    definition:
      "A worker's hand-out whose job no longer exists (the job was deleted while a worker held it): there is nothing left to run. Clean up removes the hand-out. The Redis documentation calls such a left-over a tombstone.",
  },
  {
    term: 'Out of date',
    id: 'out-of-date',
    definition:
      'A hand-out the job itself no longer agrees with: the job has since been handed out again, released or finished being reserved. Nothing runs it twice; the next worker that takes a job from its queue clears it.',
  },
  {
    term: 'No worker',
    id: 'no-worker',
    definition: 'Jobs of a queue have been ready for a while and no worker has taken any job from it since, nor holds one: nobody is watching the queue.',
  },
  {
    term: 'Stuck',
    id: 'stuck',
    definition: 'Jobs of a queue overdue for a while: their holders stopped and no worker has taken them back.',
  },
  {
    term: 'Failed',
    id: 'failed',
    definition:
      'A job that used up its attempts, or was failed by hand. It stays on the failed list with its error until it is retried or forgotten; forgetting deletes it for good.',
  },
];
