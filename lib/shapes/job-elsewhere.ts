/**
 * Where else a job id is (one that namesOneJobAnywhere), for "Go to job",
 * the job page and Find when the connection a tab shows holds no job with
 * it: the other connections that do, each with a page per job (one per
 * queue holding it, where the layout looks an id up by queue), and those
 * that could not say.
 */
export interface JobElsewhere {
  /** in the connections file's order */
  holders: JobElsewhereHolder[];
  /** the labels of the connections that could not be asked (Redis unreachable, or no answer in time) */
  unanswered: string[];
}

export interface JobElsewhereHolder {
  /** the connection's name, which the header's switcher takes */
  connection: string;
  label: string;
  /** the job's page on it: one, or one per queue holding an id its queues count each */
  jobs: { queue: string | null; href: string }[];
}

/**
 * Whether another connection's job with `id` is likely this one: an
 * application's id (marko's UUIDs, Laravel's random letters) names one job
 * wherever it is, but a whole number is counted per connection (StaticPHP)
 * or per queue (yii2), so another connection's job 42 is another job.
 */
export function namesOneJobAnywhere(id: string): boolean {
  return !/^\d+$/.test(id);
}
