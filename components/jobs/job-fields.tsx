import { CodeBlock } from '@/components/ui/code-block';
import { CopyButton } from '@/components/ui/copy-button';
import { formatCount } from '@/components/ui/format-count';
import { UtcMoment } from '@/components/ui/moment';
import { Absent } from '@/components/ui/table';
import { DISPLAY_LIMIT_BYTES, type DisplayValue } from '@/lib/shapes/display-text';
import type { JobHash } from '@/lib/layouts/pages';
import { jobFieldDownloadHref } from '@/lib/routes';
import { fieldRows } from './field-rows';

/** The id of a field's row, for links to it from the top of the page. */
export function fieldAnchor(name: string): string {
  return `field-${encodeURIComponent(name)}`;
}

/** Fields whose whole text is the point: shown in a block of their own. */
const BLOCK_FIELDS = new Set(['payload', 'error', 'last_error']);
/** Unix seconds the scripts compare; 0 means "not set". */
const UNIX_SECONDS_FIELDS = new Set(['available_at', 'reserved_until']);
/** `Y-m-d H:i:s`, written in UTC. */
const UTC_TEXT_FIELDS = new Set(['created_at', 'failed_at']);
/** Longer than this, or on several lines, a value gets a block instead of a line. */
const INLINE_LIMIT = 160;

function TruncationNote({ id, field, value }: { id: number; field: string; value: DisplayValue }) {
  return (
    <p className="text-sm text-amber-800 dark:text-amber-300">
      Showing the first {DISPLAY_LIMIT_BYTES / 1024} KiB of {formatCount(value.bytes)} bytes.{' '}
      <a href={jobFieldDownloadHref(id, field)} download className="text-blue-700 underline underline-offset-2 dark:text-blue-400">
        Download the whole {field}
      </a>
    </p>
  );
}

/** The job a field belongs to: its id (for the download), its hash and the Redis server's clock from the same read. */
interface JobOfField {
  id: number;
  hash: JobHash;
  now: number;
}

function FieldValue({ detail, name, value }: { detail: JobOfField; name: string; value: DisplayValue | null }) {
  if (value === null) return <Absent label="not stored" />;
  if (value.bytes === 0) return <span className="text-zinc-500 italic dark:text-zinc-400">empty</span>;

  if (name === 'payload') {
    const shown = detail.hash.payloadPretty ?? value.text;
    return (
      <div className="space-y-2">
        <div className="flex flex-wrap items-center gap-3">
          {/* A cut payload is not worth copying: the download has all of it. */}
          {!value.truncated && <CopyButton text={shown} label="Copy payload" />}
          {detail.hash.payloadPretty === null && !value.truncated && (
            <span className="text-xs text-zinc-500 dark:text-zinc-400">Not JSON: shown as stored.</span>
          )}
        </div>
        {value.truncated && <TruncationNote id={detail.id} field={name} value={value} />}
        <CodeBlock label={name} text={shown} />
      </div>
    );
  }
  if (BLOCK_FIELDS.has(name) || value.truncated || value.text.includes('\n') || value.text.length > INLINE_LIMIT) {
    return (
      <div className="space-y-2">
        {value.truncated && <TruncationNote id={detail.id} field={name} value={value} />}
        <CodeBlock label={name} text={value.text} wrap />
      </div>
    );
  }
  const seconds = Number(value.text);
  return (
    <span className="font-mono [overflow-wrap:anywhere]">
      {value.text}
      {UNIX_SECONDS_FIELDS.has(name) && /^\d+$/.test(value.text) && seconds > 0 && (
        <span className="font-sans text-zinc-500 dark:text-zinc-400">
          {' · '}
          <UtcMoment seconds={seconds} now={detail.now} />
        </span>
      )}
      {UTC_TEXT_FIELDS.has(name) && <span className="font-sans text-zinc-500 dark:text-zinc-400"> UTC</span>}
    </span>
  );
}

/**
 * Every field of a job's hash as stored, as text: the usual fields in the
 * spec's order ("—" where the hash lacks one), then any others. Values over
 * 64 KiB are shown cut, with a download of the whole.
 */
export function JobFields({ detail }: { detail: JobOfField }) {
  const rows = fieldRows(detail.hash.fields, detail.hash.location.state === 'failed');
  return (
    <dl className="divide-y divide-zinc-100 rounded-md border border-zinc-200 bg-white text-sm dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900">
      {rows.map(({ name, value }) => (
        <div key={name} id={fieldAnchor(name)} className="grid scroll-mt-4 gap-1 px-4 py-2.5 sm:grid-cols-[11rem_minmax(0,1fr)] sm:gap-4">
          <dt className="font-mono text-zinc-600 [overflow-wrap:anywhere] dark:text-zinc-400">{name}</dt>
          <dd className="min-w-0">
            <FieldValue detail={detail} name={name} value={value} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
