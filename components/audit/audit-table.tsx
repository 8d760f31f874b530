import { Badge, type BadgeTone } from '@/components/ui/badge';
import { UtcMoment } from '@/components/ui/moment';
import { Absent, Cell, DataTable, HeaderCell } from '@/components/ui/table';
import type { AuditRecord, AuditResult } from '@/lib/queries/audit';

export const AUDIT_TABLE_LABEL = 'Audit log, newest first';

export const AUDIT_RESULT_LABELS: Record<AuditResult, string> = { ok: 'OK', refused: 'Refused', failed: 'Failed' };

const RESULT_TONES: Record<AuditResult, BadgeTone> = { ok: 'good', refused: 'warning', failed: 'bad' };

function isKnownResult(result: string): result is AuditResult {
  return Object.hasOwn(RESULT_TONES, result);
}

function ResultBadge({ result }: { result: string }) {
  if (result === '') return <Absent label="no result recorded" />;
  // An entry QueueLens did not write may hold anything: it is shown as it is, without a colour that would vouch for it.
  if (!isKnownResult(result)) return <Badge tone="neutral">{result}</Badge>;
  return <Badge tone={RESULT_TONES[result]}>{AUDIT_RESULT_LABELS[result]}</Badge>;
}

/**
 * Entry text as stored, its line breaks kept (an error's trace), or a dash
 * with words for a screen reader when the entry lacks it. `wholeWords`: a
 * short value (a name, a role) is not broken inside a word to make room for
 * the long ones on a narrow screen; the table scrolls instead.
 */
function Text({ value, missing, wholeWords = false }: { value: string; missing: string; wholeWords?: boolean }) {
  if (value === '') return <Absent label={missing} />;
  return <span className={`whitespace-pre-line ${wholeWords ? 'break-words' : ''}`}>{value}</span>;
}

function When({ at, now }: { at: string; now: number }) {
  const ms = Date.parse(at);
  return Number.isNaN(ms) ? <Absent label="time unknown" /> : <UtcMoment seconds={ms / 1000} now={now} />;
}

/**
 * One row per recorded change. Every field is text from the log, which
 * anyone with write access to Redis could have written: rendered as text,
 * never as markup, and an entry with missing or unknown fields says so.
 */
export function AuditTable({ entries, now }: { entries: readonly AuditRecord[]; now: number }) {
  return (
    <DataTable
      label={AUDIT_TABLE_LABEL}
      minWidthClass="min-w-[60rem]"
      head={
        <>
          <HeaderCell>Time (UTC)</HeaderCell>
          <HeaderCell>Who</HeaderCell>
          <HeaderCell>Role</HeaderCell>
          <HeaderCell>Action</HeaderCell>
          <HeaderCell>Target</HeaderCell>
          <HeaderCell>Result</HeaderCell>
          <HeaderCell>Detail</HeaderCell>
        </>
      }
    >
      {entries.map((entry) => (
        <tr key={entry.id}>
          <Cell>
            <When at={entry.at} now={now} />
          </Cell>
          <Cell>
            <Text value={entry.who} missing="nobody recorded" wholeWords />
          </Cell>
          <Cell>
            <Text value={entry.role} missing="no role recorded" wholeWords />
          </Cell>
          <Cell code>
            <Text value={entry.action} missing="no action recorded" wholeWords />{' '}
            {entry.connection !== '' && <span className="block text-zinc-500 dark:text-zinc-400">on {entry.connection}</span>}
          </Cell>
          <Cell>
            <Text value={entry.target} missing="no target recorded" />
          </Cell>
          <Cell>
            <ResultBadge result={entry.result} />
          </Cell>
          <Cell>
            <Text value={entry.detail} missing="no detail" />
            {entry.damaged.length > 0 && (
              <span className="mt-1 block text-xs text-amber-800 dark:text-amber-300">
                Not as QueueLens writes entries: {entry.damaged.join(', ')} missing, too long or unknown.
              </span>
            )}
          </Cell>
        </tr>
      ))}
    </DataTable>
  );
}
