import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { prepareLaunch } from '../lib/auth/launch';
import { SERVER_NODE_FLAGS } from '../lib/serving/server-process';
import { settingsFromEnv } from '../lib/redis/config';
import { isAbsent, LAYOUT_NAMES, type Absent, type QueueLayout } from '../lib/layouts/adapter';
import { retryEveryFailed } from '../lib/layouts/retry-every-failed';
import type { LayoutFinding } from '../lib/layouts/layout-doctor';
import { openLayout } from '../lib/layouts/open-layout';
import { dashboardPrefixFromEnv } from '../lib/dashboard/keys';
import { trashSettingsFromEnv } from '../lib/dashboard/trash-settings';
import { describeRestoreRefusal, TRASHED_FROM, type TrashWrite } from '../lib/shapes/trash';
import { detectLayouts, DETECT_EVERY_KEY } from '../lib/layouts/detect';
import { redisLocationOf, suggestedEntries } from '../lib/shapes/detect-entry';
import type { Detection } from '../lib/shapes/detect-tally';
import { layoutSettingsFromEnv, type LayoutSettings } from '../lib/layouts/settings';
import { QueueError } from '../lib/redis/errors';
import type { PushOptions } from '../lib/layouts/staticphp/redis-queue';
import { describeUnrunnablePayload } from '../lib/shapes/job-payload';
import { RedisConnection } from '../lib/redis/connection';
import { demoHandlers } from '../lib/worker/demo-handlers';
import {
  describeRangeScope,
  FIND_FIELDS,
  FIND_STATES,
  isRanged,
  MAX_FIND_TEXT,
  parseFindTime,
  rangeScope,
  unseenMatches,
  type FindField,
  type FindQuery,
  type FindState,
  type FindStep,
} from '../lib/shapes/find';
import { UNREACHABLE_FIRST_WAIT_MS, UNREACHABLE_MAX_WAIT_MS, Worker, type WorkerEvent } from '../lib/worker/worker';

const USAGE = `Usage: queuelens <command> [options]

Commands:
  status [--json]                          jobs per queue, and the failed count
  failed [--limit N] [--json]              failed jobs, newest first (20; N floors at 1, as PHP's failedRows:
                                           --limit 0 lists the newest one)
  retry (--id N ... | --all) [--max-attempts N]
                                           put failed jobs back on their queue (marko: prints
                                           the marko command that does, and exits 2)
  retry --id N --payload PAYLOAD_JSON      retry one failed job with this payload, stored as given; the job
                                           as it was is kept in the trash, to restore once the retry is gone
  find TEXT [--queue Q] [--state S ...] [--field F] [--ignore-case] [--since T] [--until T] [--json]
                                           jobs whose id is TEXT or whose name, payload or error holds it
                                           (byte for byte), in every state; S: ready, delayed, reserved,
                                           failed; F: any (default), id, name, payload, error. --ignore-case:
                                           A-Z match a-z (other bytes, such as É/é, and ids stay exact).
                                           One line per match, tab-separated: id, state, queue, name, the
                                           match in [ ]
  forget (--id N | --before DATE | --all)  forget failed jobs (DATE: Y-m-d or Y-m-d H:i:s, UTC); StaticPHP keeps
                                           them in QueueLens's trash (QUEUELENS_TRASH_SECONDS, default 86400)
  trash list [--limit N] [--queue-contains TEXT] [--from failed|ready|delayed|reserved] [--who TEXT] [--json]
                                           what the trash keeps, newest first (every layout), narrowed to
                                           a queue, where they were, and who took them
  trash restore ID [ID ...]                put trashed jobs back where the driver keeps them; exit 1 when one
                                           is refused (its id or unique key taken meanwhile, or expired)
  copy QUEUE ID [--delay S]                run a copy of a job (yii2: QUEUE is its channel; Laravel): a new id,
                                           the job's own bytes, pushed where the driver pushes a new job
                                           (StaticPHP: push does it; marko's signed payloads: refused)
  push QUEUE NAME PAYLOAD_JSON [--delay S] [--priority N] [--unique KEY] [--max-attempts N]
                                           PAYLOAD_JSON (an object or an array) is stored as given
  doctor [--json] [--repair]              check the whole layout (yii2: each channel); exit 1 when anything is wrong.
                                           --repair applies the repairs (exit 0 when all were repaired)
  detect [--match PATTERN] [--json]        find the queues in a Redis: each StaticPHP or marko prefix and yii2
                                           channel, with its connections-file entry (bounded SCAN steps; PATTERN
                                           is a SCAN MATCH glob, default *). Exit 1 when none is found
  serve [-H|--host H] [-p|--port P]        run the dashboard from the production build (npm run build first);
                                           default 127.0.0.1:3000. Without QUEUELENS_SECRET on a loopback
                                           address it makes a secret and prints a one-time login link
  work QUEUE[,QUEUE...] [--concurrency N] [--timeout S]
                                           run the demo handlers: demo.noop, demo.sleep {"ms":N},
                                           demo.fail {"error":"…"}, demo.flaky {"p":0.3}, demo.record {"ms":N}.
                                           While Redis cannot be reached (at the start too) it waits and retries

Connection: --redis-url URL (or REDIS_URL), --prefix PREFIX (or QUEUE_PREFIX).
Layout: --layout staticphp|yii2|yii2-ng|marko|laravel (or QUEUE_LAYOUT; default staticphp);
        for yii2, --channel NAME, one or more (or QUEUE_CHANNELS=a,b; default queue);
        for marko, --prefix (default marko:), --queue NAME, one or more (or QUEUE_NAMES=a,b;
        default: found by a bounded SCAN) and --retry-after S (or QUEUE_RETRY_AFTER);
        for laravel, --prefix (default laravel_database_) and --queue NAME as for marko, and
        --horizon-prefix P (or HORIZON_PREFIX, e.g. laravel_horizon:) where Horizon runs: its failed jobs.
        for yii2-ng, --default-priority N (1024) and --aging S (0: strict) as the PHP side has them.
        status and doctor work on every layout; the other commands need what the layout keeps.
Exit status: 0 success, 1 failure, 2 bad usage or a command the layout cannot do.`;

/** A forget from the CLI, as the trash records it: the shell's user, kept as the environment says. */
function cliTrashWrite(): TrashWrite {
  return { ...trashSettingsFromEnv(), who: process.env.USER ?? process.env.LOGNAME ?? '', via: 'cli' };
}

/** Bad usage: exit 2. */
class UsageError extends Error {}

/** A command the connection's layout cannot do: exit 2, with the layout's reason. */
class UnsupportedError extends Error {}

const connectionOptions = {
  'redis-url': { type: 'string' },
  prefix: { type: 'string' },
  layout: { type: 'string' },
  channel: { type: 'string', multiple: true },
  'default-priority': { type: 'string' },
  aging: { type: 'string' },
  queue: { type: 'string', multiple: true },
  'retry-after': { type: 'string' },
  'horizon-prefix': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

function parse<const O extends ParseArgsConfig['options']>(args: string[], options: O) {
  const all = { ...connectionOptions, ...options };
  try {
    return parseArgs({ args: withNegativeValues(args, all), options: all, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/**
 * parseArgs reads `--priority -3` as an option missing its value (it calls
 * "-3" ambiguous): a negative number after an option that takes a value is
 * that value, so it is passed as `--priority=-3`.
 */
function withNegativeValues(args: readonly string[], options: NonNullable<ParseArgsConfig['options']>): string[] {
  const takesValue = (arg: string) => {
    const entry = arg.startsWith('--')
      ? ([arg.slice(2), options[arg.slice(2)]] as const)
      : Object.entries(options).find(([, option]) => option.short !== undefined && arg === `-${option.short}`);
    return entry?.[1]?.type === 'string' ? entry[0] : undefined;
  };
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const name = takesValue(args[i]!);
    const next = args[i + 1];
    if (name !== undefined && next !== undefined && /^-\d/.test(next)) {
      joined.push(`--${name}=${next}`);
      i += 1;
    } else {
      joined.push(args[i]!);
    }
  }
  return joined;
}

function wholeNumber(text: string | undefined, option: string, min: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(value) || value < min) {
    throw new UsageError(`${option} takes a whole number of at least ${min}, got "${text}"`);
  }
  return value;
}

interface ConnectionValues {
  'redis-url'?: string;
  prefix?: string;
  layout?: string;
  channel?: string[];
  'default-priority'?: string;
  aging?: string;
  queue?: string[];
  'retry-after'?: string;
  'horizon-prefix'?: string;
}

async function connect(values: ConnectionValues): Promise<QueueLayout> {
  const env = { ...process.env };
  if (values['redis-url'] !== undefined) env.REDIS_URL = values['redis-url'];
  if (values.prefix !== undefined) env.QUEUE_PREFIX = values.prefix;
  if (values.layout !== undefined) {
    if (!(LAYOUT_NAMES as readonly string[]).includes(values.layout))
      throw new UsageError(`--layout takes one of ${LAYOUT_NAMES.join(', ')}, not "${values.layout}"`);
    env.QUEUE_LAYOUT = values.layout;
  }
  if (values.channel !== undefined) env.QUEUE_CHANNELS = values.channel.join(',');
  if (values.queue !== undefined) env.QUEUE_NAMES = values.queue.join(',');
  if (values['retry-after'] !== undefined) env.QUEUE_RETRY_AFTER = values['retry-after'];
  if (values['horizon-prefix'] !== undefined) env.HORIZON_PREFIX = values['horizon-prefix'];
  return openLayout(settingsFromEnv(env), withNgOptions(layoutSettingsFromEnv(env), values));
}

/**
 * redis-ng's defaultPriority and aging, which Redis does not store and its
 * scores cannot reveal: the doctor's band check and the repairs' placing
 * need the values the PHP side runs with.
 */
function withNgOptions(settings: LayoutSettings, values: ConnectionValues): LayoutSettings {
  const { aging: agingText } = values;
  if (values['default-priority'] === undefined && agingText === undefined) return settings;
  if (settings.layout !== 'yii2-ng') throw new UsageError('--default-priority and --aging are redis-ng settings: they need --layout yii2-ng');
  const defaultPriority = wholeNumber(values['default-priority'], '--default-priority', 0);
  if (defaultPriority !== undefined && defaultPriority > 9000) throw new UsageError(`--default-priority takes 0 to 9000, got "${values['default-priority']}"`);
  if (agingText !== undefined && !(/^\d+(\.\d+)?$/.test(agingText) && Number(agingText) <= 86400)) {
    throw new UsageError(`--aging takes seconds per priority point from 0 to 86400, got "${agingText}"`);
  }
  const aging = agingText === undefined ? undefined : Number(agingText);
  return { ...settings, ng: { ...settings.ng, ...(defaultPriority === undefined ? {} : { defaultPriority }), ...(aging === undefined ? {} : { aging }) } };
}

function printTable(headers: string[], rows: (string | number)[][]): void {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => String(row[column]).length)));
  const line = (cells: (string | number)[]) =>
    cells
      .map((cell, column) => String(cell).padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  console.log([line(headers), ...rows.map(line)].join('\n'));
}

function firstLine(text: string | undefined): string {
  const line = (text ?? '').split('\n', 1)[0] ?? '';
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

/** Resolves with the exit status when it is not 0 (doctor: 1 when it found something). */
type Command = (args: string[]) => Promise<void | number>;

const commands: Record<string, Command> = {
  async status(args) {
    const { values, positionals } = parse(args, { json: { type: 'boolean' } });
    if (positionals.length > 0) throw new UsageError('status takes no arguments');
    await withLayout(values, async (layout) => {
      const counts = await layout.counts();
      const { queues, failed } = counts;
      // Whole, with what a layout adds (marko: how its queues were found and how far failed jobs were counted per queue).
      if (values.json) return console.log(JSON.stringify(counts));
      console.log(whatWasRead(layout));
      if (queues.length === 0) console.log('No jobs in any queue.');
      else
        printTable(
          ['queue', 'pending', 'delayed', 'reserved', 'total'],
          queues.map((row) => [row.queue, row.pending, row.delayed, row.reserved, row.total]),
        );
      console.log(isAbsent(layout.failedJobs) ? `failed: none kept (${layout.failedJobs.absent})` : `failed: ${failed}`);
      if (queues.length === 0 && !failed) for (const line of await queuesElsewhere(layout)) console.log(line);
    });
  },

  async find(args) {
    const { values, positionals } = parse(args, {
      json: { type: 'boolean' },
      state: { type: 'string', multiple: true },
      field: { type: 'string' },
      'ignore-case': { type: 'boolean' },
      since: { type: 'string' },
      until: { type: 'string' },
    });
    const [text, ...rest] = positionals;
    if (text === undefined || rest.length > 0) throw new UsageError('find takes one TEXT to look for');
    const query = findQueryOf(text, values);
    await withCapability(values, 'finder', 'find', async (finder, layout) => {
      if (!values.json) console.log(whatWasRead(layout));
      // Which states the range applies to, and which it leaves out as they record no time: on stderr under --json, which prints matches alone.
      if (isRanged(query.range)) (values.json ? console.error : console.log)(describeRangeScope(rangeScope(query, finder.states, finder.times)));
      let cursor: string | null = null;
      let found = 0;
      const seen = new Set<string>();
      // Step by step, printing each step's matches as they come: a search of a million jobs shows its first match at once.
      do {
        const step: FindStep = await finder.step(query, cursor);
        for (const match of unseenMatches(seen, step.matches)) {
          found += 1;
          const snippet = `${match.field}: ${match.snippet.before}[${match.snippet.match}]${match.snippet.after}`;
          console.log(values.json ? JSON.stringify(match) : [match.id, match.state, match.queue, match.name, snippet.replace(/[\r\n\t]/g, ' ')].join('\t'));
        }
        cursor = step.cursor;
        if (!values.json && process.stderr.isTTY) process.stderr.write(`\rlooked at ${step.looked} of about ${step.about} jobs`);
      } while (cursor !== null);
      if (!values.json) console.log(found === 0 ? 'No job matches.' : `${found} match${found === 1 ? '' : 'es'}.`);
    });
  },

  async failed(args) {
    const { values, positionals } = parse(args, { json: { type: 'boolean' }, limit: { type: 'string' } });
    if (positionals.length > 0) throw new UsageError('failed takes no arguments');
    // PHP's `queue failed --limit=0` answers: its failedRows floors the limit at 1, and every layout's failedRows here does the same.
    const limit = wholeNumber(values.limit, '--limit', 0) ?? 20;
    await withCapability(values, 'failedJobs', 'failed', async (queue, layout) => {
      const rows = await queue.failedRows(limit);
      if (values.json) return console.log(JSON.stringify(rows));
      console.log(whatWasRead(layout));
      if (rows.length === 0) return console.log('No failed jobs.');
      printTable(
        ['id', 'queue', 'name', 'attempts', 'failed_at (UTC)', 'error'],
        // marko keeps the attempts inside the signed job, unread: the cell stays empty.
        rows.map((row) => [
          row.id,
          row.queue,
          row.name,
          row.attempts === '' ? '' : `${row.attempts}/${row.max_attempts}`,
          row.failed_at ?? '',
          firstLine(row.error),
        ]),
      );
    });
  },

  async retry(args) {
    const { values, positionals } = parse(args, {
      id: { type: 'string', multiple: true },
      all: { type: 'boolean' },
      'max-attempts': { type: 'string' },
      payload: { type: 'string' },
    });
    if (positionals.length > 0) throw new UsageError('retry takes no positional arguments');
    const texts = values.id ?? [];
    if (texts.length > 0 === Boolean(values.all)) throw new UsageError('retry needs --id N (one or more) or --all');
    if (values.payload !== undefined && texts.length !== 1) throw new UsageError('retry --payload retries one job: give exactly one --id N');
    const maxAttempts = wholeNumber(values['max-attempts'], '--max-attempts', 1);
    await withCapability(values, 'failedJobs', 'retry', async (queue) => {
      const retry = queue.retryFailed;
      if (isAbsent(retry)) {
        // The command to run instead goes to stdout, to be copied or piped; why, to stderr.
        console.log(retry.commandsFor(values.all ? null : texts).join('\n'));
        throw new UnsupportedError(`retry is not available on this layout: ${retry.absent}. Run the command above where the application runs.`);
      }
      if (maxAttempts !== undefined && retry.maxAttempts !== true)
        throw new UnsupportedError(`--max-attempts is not available on this layout: ${retry.maxAttempts.absent}`);
      if (values.payload !== undefined) {
        if (isAbsent(retry.editAndRetry)) throw new UnsupportedError(`retry --payload is not available on this layout: ${retry.editAndRetry.absent}`);
        const { outcome, kept } = await retry.editAndRetry(texts[0]!, null, values.payload, { maxAttempts, trash: cliTrashWrite() });
        if (outcome !== 'retried') throw new Error(`Job ${texts[0]} was not retried: ${outcome === 'not-failed' ? 'it is not failed' : 'its hash is gone'}`);
        console.log(`Retried job ${texts[0]} with the given payload${kept ? '; the job as it was is in the trash (queuelens trash list)' : ''}`);
        return;
      }
      if (values.all && isAbsent(retry.oldest)) throw new UnsupportedError(`retry --all is not available on this layout: ${retry.oldest.absent}`);
      const outcome = values.all ? await retryEveryFailed(queue, retry, { maxAttempts }) : await retry.ids(texts, { maxAttempts });
      const parts = [`Retried ${outcome.requeued.length} job${outcome.requeued.length === 1 ? '' : 's'}`];
      if (outcome.notFailed.length > 0) parts.push(`not failed (skipped): ${outcome.notFailed.join(', ')}`);
      if (outcome.missing.length > 0) parts.push(`hash gone (removed from the failed set): ${outcome.missing.join(', ')}`);
      for (const { id, why } of outcome.refused) parts.push(`not retried: ${id}: ${why}`);
      console.log(parts.join('; '));
    });
  },

  async forget(args) {
    const { values, positionals } = parse(args, { id: { type: 'string' }, before: { type: 'string' }, all: { type: 'boolean' } });
    if (positionals.length > 0) throw new UsageError('forget takes no positional arguments');
    const chosen = [values.id !== undefined, values.before !== undefined, Boolean(values.all)].filter(Boolean).length;
    if (chosen !== 1) throw new UsageError('forget needs exactly one of --id N, --before DATE or --all');
    await withCapability(values, 'failedJobs', 'forget', async (queue) => {
      const [before, options] = [values.before ?? null, { all: Boolean(values.all) }];
      // Ids as given: each layout checks its own (StaticPHP's are whole numbers).
      const forgotten = await queue.forgetFailed(values.id ?? null, before, options, cliTrashWrite());
      console.log(`Forgot ${forgotten} failed job${forgotten === 1 ? '' : 's'}`);
    });
  },

  async trash(args) {
    const [verb, ...rest] = args;
    if (verb === 'list') {
      const { values, positionals } = parse(rest, {
        limit: { type: 'string' },
        json: { type: 'boolean' },
        'queue-contains': { type: 'string' },
        from: { type: 'string' },
        who: { type: 'string' },
      });
      if (positionals.length > 0) throw new UsageError('trash list takes no positional arguments');
      const limit = wholeNumber(values.limit, '--limit', 1) ?? 20;
      if (values.from !== undefined && !(TRASHED_FROM as readonly string[]).includes(values.from)) {
        throw new UsageError(`--from must be one of ${TRASHED_FROM.join(', ')}`);
      }
      const filter = { queue: values['queue-contains'] ?? '', from: values.from ?? '', who: values.who ?? '' };
      await withCapability(values, 'trash', 'trash list', async (trash) => {
        const page = await trash.list(trashSettingsFromEnv(), 0, limit, filter);
        if (values.json) return console.log(JSON.stringify(page));
        if (page.keepSeconds === 0) console.log('The trash is off (QUEUELENS_TRASH_SECONDS, _MAX or _MAX_BYTES is 0): a forget deletes for good.');
        const newest = page.rows.length < page.total ? `, the newest ${page.rows.length}` : '';
        console.log(`${page.total} job${page.total === 1 ? '' : 's'} in the trash (${page.bytes} of at most ${page.maxBytes} bytes)${newest}`);
        for (const row of page.rows) {
          const at = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
          console.log(
            `${row.id}\t${row.name}\t${row.from} of ${row.queue}\tby ${row.who || '?'} (${row.via})\t${at(row.trashedAt)} UTC\texpires ${at(row.expiresAt)} UTC`,
          );
        }
      });
      return;
    }
    if (verb === 'restore') {
      const { values, positionals } = parse(rest, {});
      if (positionals.length === 0) throw new UsageError('trash restore needs one or more job ids');
      let status = 0;
      await withCapability(values, 'trash', 'trash restore', async (trash) => {
        const outcomes = await trash.restore(trashSettingsFromEnv(), positionals);
        const refused = outcomes.filter(({ outcome }) => outcome !== 'restored');
        const restored = outcomes.length - refused.length;
        console.log(`Restored ${restored} job${restored === 1 ? '' : 's'}`);
        for (const { id, outcome } of refused) if (outcome !== 'restored') console.error(describeRestoreRefusal(id, outcome));
        status = refused.length > 0 ? 1 : 0;
      });
      return status;
    }
    throw new UsageError('trash needs list or restore');
  },

  async copy(args) {
    const { values, positionals } = parse(args, { delay: { type: 'string' } });
    if (positionals.length !== 2) throw new UsageError('copy needs QUEUE and ID');
    const [queue, id] = positionals as [string, string];
    const delaySeconds = wholeNumber(values.delay, '--delay', 0) ?? 0;
    await withCapability(values, 'jobCopies', 'copy', async (copies) => {
      const made = await copies.copy(queue, id, { delaySeconds });
      if (!made.copied) throw new QueueError(made.refused);
      console.log(`Copied job ${id} of ${queue} as job ${made.id}${delaySeconds > 0 ? `, due in ${delaySeconds} s` : ''}`);
    });
  },

  async push(args) {
    const { values, positionals } = parse(args, {
      delay: { type: 'string' },
      priority: { type: 'string' },
      unique: { type: 'string' },
      'max-attempts': { type: 'string' },
    });
    const [queueName, name, payloadJson, ...extra] = positionals;
    if (queueName === undefined || name === undefined || payloadJson === undefined || extra.length > 0) {
      throw new UsageError('push needs QUEUE NAME PAYLOAD_JSON');
    }
    const payloadError = describeUnrunnablePayload(payloadJson);
    if (payloadError !== null) throw new UsageError(`PAYLOAD_JSON ${payloadError}`);
    if (values.priority !== undefined && !/^-?\d+$/.test(values.priority)) {
      throw new UsageError(`--priority takes a whole number (negative allowed), got "${values.priority}"`);
    }
    const options: PushOptions = {
      delaySeconds: wholeNumber(values.delay, '--delay', 0),
      // As text: a PHP priority may be beyond what a JS number holds exactly.
      priority: values.priority,
      uniqueKey: values.unique,
      maxAttempts: wholeNumber(values['max-attempts'], '--max-attempts', 1),
    };
    await withCapability(values, 'runner', 'push', async (queue) => console.log(String(await queue.pushEncoded(queueName, name, payloadJson, options))));
  },

  async doctor(args) {
    const { values, positionals } = parse(args, { json: { type: 'boolean' }, repair: { type: 'boolean' } });
    if (positionals.length > 0) throw new UsageError('doctor takes no arguments');
    let status = 0;
    await withCapability(values, 'doctor', 'doctor', async (doctor) => {
      const onProgress = !values.json && process.stderr.isTTY ? (progress: string) => process.stderr.write(`\r${progress}`) : undefined;
      const endProgress = () => onProgress && process.stderr.write('\n');
      if (!values.repair) {
        const findings = await doctor.check(onProgress);
        endProgress();
        if (values.json) console.log(JSON.stringify({ findings }));
        else if (findings.length === 0) console.log('No problems found.');
        else for (const finding of findings) console.log(describeFinding(finding));
        status = findings.length > 0 ? 1 : 0;
        return;
      }
      const report = await doctor.checkAndRepair(onProgress);
      endProgress();
      if (values.json) {
        console.log(JSON.stringify(report));
      } else {
        const { repaired, unchanged, notRepaired } = report;
        if (repaired.length + unchanged.length + notRepaired.length === 0) console.log('No problems found.');
        for (const finding of repaired) console.log(`repaired  ${subjectOf(finding)}  ${finding.repairDescription}`);
        for (const finding of unchanged) console.log(`unchanged (no longer broken)  ${subjectOf(finding)}  ${finding.repairDescription}`);
        for (const finding of notRepaired) console.log(`not repaired  ${subjectOf(finding)}  ${finding.repairDescription}`);
      }
      status = report.notRepaired.length > 0 ? 1 : 0;
    });
    return status;
  },

  async work(args) {
    const { values, positionals } = parse(args, { concurrency: { type: 'string' }, timeout: { type: 'string' } });
    const queues = (positionals[0] ?? '').split(',').filter((name) => name !== '');
    if (queues.length === 0 || positionals.length > 1) throw new UsageError('work needs QUEUE[,QUEUE...]');
    const concurrency = wholeNumber(values.concurrency, '--concurrency', 1) ?? 1;
    const timeoutSeconds = wholeNumber(values.timeout, '--timeout', 1) ?? 60;
    // Signals are heard from the start: a worker still waiting for Redis stops at once.
    const stopping = new AbortController();
    let worker: Worker | undefined;
    const stop = () => {
      console.error('Stopping after the running jobs finish…');
      stopping.abort();
      worker?.stop();
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    const outage = outageLog();
    const layout = await connectOnceReachable(values, outage, stopping.signal);
    if (layout === null) return;
    try {
      const queue = capabilityOf(layout, 'runner', 'work');
      queue.redis.on('ready', () => outage.ended());
      const onEvent = (event: WorkerEvent) => {
        // While the connection is down every slot's every retry fails alike: the outage is logged once.
        if (event.type === 'queue-unreachable' && queue.redis.status !== 'ready') outage.began(event.error);
        else logWorkerEvent(event);
      };
      worker = new Worker(queue, { queues, handlers: demoHandlers(queue), concurrency, timeoutSeconds, onEvent });
      console.error(`Working ${queues.join(', ')} with concurrency ${concurrency} and a ${timeoutSeconds}s timeout`);
      if (!stopping.signal.aborted) await worker.run();
    } finally {
      await layout.close();
    }
  },

  async detect(args) {
    const { values, positionals } = parse(args, { json: { type: 'boolean' }, match: { type: 'string' } });
    if (positionals.length > 0) throw new UsageError('detect takes no arguments');
    const unused = (['prefix', 'layout', 'channel', 'queue', 'retry-after', 'horizon-prefix', 'default-priority', 'aging'] as const).filter(
      (option) => values[option] !== undefined,
    );
    if (unused.length > 0) throw new UsageError(`detect finds the layouts itself: it takes no --${unused[0]}`);
    const match = values.match ?? DETECT_EVERY_KEY;
    if (match === '') throw new UsageError('--match takes a SCAN MATCH pattern, such as myapp:*');
    const env = { ...process.env, ...(values['redis-url'] !== undefined ? { REDIS_URL: values['redis-url'] } : {}) };
    const queue = await RedisConnection.connect(settingsFromEnv(env));
    try {
      const onStep =
        !values.json && process.stderr.isTTY
          ? ({ scanned, found }: { scanned: number; found: number }) => process.stderr.write(`\rscanned ${scanned} keys, found ${found}`)
          : undefined;
      const detection = await detectLayouts(queue.redis, { match, ownPrefix: dashboardPrefixFromEnv() }, onStep);
      if (onStep) process.stderr.write('\n');
      const entries = suggestedEntries(detection.found, redisLocationOf(queue.settings));
      const found = detection.found.map((find, index) => ({ ...find, ...entries[index]! }));
      if (values.json) {
        console.log(JSON.stringify({ found, scanned: detection.scanned, own: detection.own, strangers: detection.strangers, capped: detection.capped }));
      } else {
        console.log(describeDetection(detection, found.length));
        for (const find of found) {
          console.log(
            `\n${find.layout}  ${find.channel !== undefined ? 'channel' : 'prefix'} ${find.channel ?? find.prefix}  (${find.confidence} confidence: ${find.matched})`,
          );
          console.log(`  ${find.keys} keys, ${find.jobs} jobs${find.queues.length > 0 ? `, queues ${find.queues.join(', ')}` : ''}`);
          console.log(`  entry: ${JSON.stringify(find.entry)}`);
          for (const note of find.notes) console.log(`  note: ${note}`);
        }
      }
      return found.length > 0 ? 0 : 1;
    } finally {
      await queue.close();
    }
  },

  async serve(args) {
    // -H and -p as `next start` spells them, so `npm start -- -p 3000 -H 127.0.0.1` works.
    const { values, positionals } = parse(args, { host: { type: 'string', short: 'H' }, port: { type: 'string', short: 'p' } });
    if (positionals.length > 0) throw new UsageError('serve takes no positional arguments');
    const host = values.host ?? '127.0.0.1';
    const port = wholeNumber(values.port, '--port', 1) ?? 3000;
    const launch = prepareLaunch(process.env, host, port);
    if (!launch.ok) throw new QueueError(launch.error);
    // The build is the checkout's, wherever the command is run from.
    const server = fileURLToPath(new URL('../.next/standalone/server.js', import.meta.url));
    if (!existsSync(server)) throw new UsageError(`${server} is missing: run npm run build first`);
    // The standalone server reads HOSTNAME and PORT; instrumentation.ts checks the same settings again.
    // The standalone server changes into its own directory, so a config file here is passed by its full path.
    const config = process.env.QUEUELENS_CONFIG ? {} : existsSync('queuelens.config.json') ? { QUEUELENS_CONFIG: resolve('queuelens.config.json') } : {};
    // NEXT_MANUAL_SIG_HANDLE leaves SIGTERM to instrumentation-node.ts, which answers the requests already sent before exiting.
    const env = { ...process.env, ...launch.env, ...config, HOSTNAME: host, PORT: String(port), NEXT_MANUAL_SIG_HANDLE: '1' };
    const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, server], { stdio: 'inherit', env });
    for (const line of launch.notice) console.log(line);
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
    return new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
  },
};

function describeDetection({ scanned, own, strangers, capped }: Detection, found: number): string {
  const keys = (n: number) => `${n} key${n === 1 ? '' : 's'}`;
  const head = found === 0 ? `No queue layout found in ${keys(scanned)}.` : `Found ${found} queue layout${found === 1 ? '' : 's'} in ${keys(scanned)}.`;
  const others =
    strangers.count === 0
      ? ''
      : ` ${keys(strangers.count)} fit${strangers.count === 1 ? 's' : ''} no layout, such as ${strangers.sample
          .slice(0, 3)
          .map((key) => JSON.stringify(key))
          .join(', ')}.`;
  const ours = own === 0 ? '' : ` ${keys(own)} ${own === 1 ? 'is' : 'are'} QueueLens's own (QUEUELENS_PREFIX).`;
  return `${head}${others}${ours}${capped ? ' Too many prefixes looked like queues to keep them all: the key counts may be low.' : ''}`;
}

function subjectOf(finding: LayoutFinding): string {
  return `${finding.kind} ${finding.jobId !== undefined ? `job ${finding.jobId} ` : ''}${finding.subject}`;
}

function describeFinding(finding: LayoutFinding): string {
  return `${finding.severity.padEnd(8)}  ${subjectOf(finding)}\n  ${finding.explanation}\n  repair: ${finding.repairDescription}`;
}

function logWorkerEvent(event: WorkerEvent): void {
  const time = new Date().toISOString();
  switch (event.type) {
    case 'completed':
      return console.log(`${time} completed ${event.job.id} ${event.job.name} in ${event.ms}ms`);
    case 'released':
      return console.log(`${time} released ${event.job.id} ${event.job.name} for ${event.delaySeconds}s: ${firstLine(event.error)}`);
    case 'failed':
      return console.log(`${time} failed ${event.job.id} ${event.job.name}: ${firstLine(event.error)}`);
    case 'claim-lost':
      return console.log(`${time} lost the claim on ${event.job.id} ${event.job.name}; left it to its new holder`);
    case 'queue-unreachable':
      return console.error(`${time} ${event.error}; retrying in ${event.retryInMs}ms`);
    case 'settle-error':
      return console.error(`${time} could not settle ${event.job.id}: ${event.error}`);
  }
}

/** Logs when an outage begins and when it ends, never each retry: a fleet's logs stay readable through a long one. */
function outageLog() {
  let since: number | null = null;
  return {
    began(error: string) {
      if (since !== null) return;
      since = Date.now();
      console.error(`${new Date().toISOString()} ${error}; retrying with backoff (up to ${UNREACHABLE_MAX_WAIT_MS / 1000}s apart) until it answers`);
    },
    ended() {
      if (since === null) return;
      console.error(`${new Date().toISOString()} Redis answers again, after ${((Date.now() - since) / 1000).toFixed(1)}s`);
      since = null;
    },
  };
}

/**
 * Connects, waiting out an outage with backoff rather than exiting, so a
 * fleet restarted while Redis is down comes back by itself once it is up.
 * Settings that cannot work still fail at once. Null when stopped meanwhile.
 */
async function connectOnceReachable(values: ConnectionValues, outage: ReturnType<typeof outageLog>, stopping: AbortSignal): Promise<QueueLayout | null> {
  for (let waitMs = UNREACHABLE_FIRST_WAIT_MS; !stopping.aborted; waitMs = Math.min(waitMs * 2, UNREACHABLE_MAX_WAIT_MS)) {
    try {
      const layout = await connect(values);
      outage.ended();
      return layout;
    } catch (error) {
      if (!(error instanceof QueueError) || !error.unreachable) throw error;
      outage.began(error.message);
      await sleep(waitMs, undefined, { signal: stopping }).catch(() => undefined);
    }
  }
  return null;
}

async function withLayout(values: ConnectionValues, action: (layout: QueueLayout) => Promise<void>): Promise<void> {
  const layout = await connect(values);
  try {
    await action(layout);
  } finally {
    await layout.close();
  }
}

type Capability = 'failedJobs' | 'runner' | 'doctor' | 'finder' | 'trash' | 'jobCopies';

/** find's TEXT and options as a query: --queue once scopes it (marko reads only that queue then), --state any number of times. */
function findQueryOf(
  text: string,
  values: { queue?: string[]; state?: string[]; field?: string; 'ignore-case'?: boolean; since?: string; until?: string },
): FindQuery {
  if (text === '' || text.length > MAX_FIND_TEXT) throw new UsageError(`find takes a TEXT of 1 to ${MAX_FIND_TEXT} characters`);
  const field = values.field ?? 'any';
  if (!(FIND_FIELDS as readonly string[]).includes(field)) throw new UsageError(`--field takes one of ${FIND_FIELDS.join(', ')}, not "${field}"`);
  const states = values.state ?? [];
  const unknown = states.find((state) => !(FIND_STATES as readonly string[]).includes(state));
  if (unknown !== undefined) throw new UsageError(`--state takes ${FIND_STATES.join(', ')}, not "${unknown}"`);
  if ((values.queue?.length ?? 0) > 1) throw new UsageError('find takes one --queue at most');
  const range = { from: findTimeOption(values.since, '--since'), until: findTimeOption(values.until, '--until') };
  if (range.from !== null && range.until !== null && range.from >= range.until) throw new UsageError('--since must be before --until');
  return {
    text,
    field: field as FindField,
    queue: values.queue?.[0] ?? null,
    states: states as FindState[],
    ignoreCase: values['ignore-case'] === true,
    ...(isRanged(range) && { range }),
  };
}

/** --since or --until as Unix ms: a UTC time as the Find page's address spells it. */
function findTimeOption(text: string | undefined, option: string): number | null {
  if (text === undefined) return null;
  const ms = parseFindTime(text);
  if (ms === null) throw new UsageError(`${option} takes a UTC time such as 2026-12-05T12:00Z or 2026-12-05T12:00:30Z, not "${text}"`);
  return ms;
}

/** Runs `action` with one of the layout's capabilities, or refuses `command` with the layout's reason for not having it. */
async function withCapability<C extends Capability>(
  values: ConnectionValues,
  capability: C,
  command: string,
  action: (queue: Exclude<QueueLayout[C], Absent>, layout: QueueLayout) => Promise<void>,
): Promise<void> {
  await withLayout(values, (layout) => action(capabilityOf(layout, capability, command), layout));
}

/** The first line of every report in words: which driver's keys, under which prefix or channels, on which server (never its password). */
function whatWasRead(layout: QueueLayout): string {
  const { database } = layout.connection.settings;
  return `Read ${layout.description} on redis ${layout.connection.server}${database === 0 ? '' : ` database ${database}`}.`;
}

/** Keys one hint walk looks at, at most: a few SCAN steps, enough for a demo or a small production database. */
const HINT_WALK_KEYS = 20_000;

/**
 * When the prefix or channels read hold nothing, the queues this Redis does
 * hold under another layout or prefix, as the options that read them: the
 * usual reason for an empty report is a prefix that is not the application's.
 */
async function queuesElsewhere(layout: QueueLayout): Promise<string[]> {
  const detection = await detectLayouts(
    layout.connection.redis,
    { match: DETECT_EVERY_KEY, ownPrefix: dashboardPrefixFromEnv() },
    undefined,
    HINT_WALK_KEYS,
  ).catch(() => null);
  // What was read holds no job, so a find with jobs is somewhere else.
  const others = (detection?.found ?? []).filter((find) => find.jobs > 0);
  if (detection === null || others.length === 0) return [];
  const scope = detection.whole ? 'This Redis' : `The first ${detection.scanned} keys of this Redis`;
  return [
    `${scope} holds queues elsewhere; read them with:`,
    ...others.map(
      (find) =>
        `  queuelens status --layout ${find.layout} ${find.channel !== undefined ? `--channel ${find.channel}` : `--prefix ${find.prefix}`}   (${find.jobs} job${find.jobs === 1 ? '' : 's'})`,
    ),
  ];
}

/** One of the layout's capabilities, or an UnsupportedError that gives the layout's reason for not having it. */
function capabilityOf<C extends Capability>(layout: QueueLayout, capability: C, command: string): Exclude<QueueLayout[C], Absent> {
  const available = layout[capability];
  if (isAbsent(available)) throw new UnsupportedError(`${command} is not available on ${layout.description}: ${available.absent}`);
  return available as Exclude<QueueLayout[C], Absent>;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(USAGE);
    return name === undefined ? 2 : 0;
  }
  const command = commands[name];
  try {
    if (!command) throw new UsageError(`Unknown command "${name}"`);
    if (args.includes('--help') || args.includes('-h')) {
      console.log(USAGE);
      return 0;
    }
    return (await command(args)) ?? 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`queuelens: ${error.message}\nRun queuelens --help for usage.`);
      return 2;
    }
    if (error instanceof UnsupportedError) {
      console.error(`queuelens: ${error.message}`);
      return 2;
    }
    // One line, never a stack trace: operators read this in cron mail.
    const message = error instanceof QueueError ? error.message : `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
    console.error(`queuelens: ${message.split('\n', 1)[0]}`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
