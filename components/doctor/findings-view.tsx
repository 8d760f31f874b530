'use client';

import type { ReactNode } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Section } from '@/components/ui/section';
import { Cell, DataTable, HeaderCell } from '@/components/ui/table';
import type { Severity } from '@/lib/shapes/doctor-kinds';
import { plural } from '@/components/ui/format-count';
import { SEVERITY_LOOK } from './finding-look';

/** Repairs a confirmation lists by name before it says "and N more". */
const LISTED = 8;

/** One finding as both doctor pages list it, whichever layout's check found it. */
export interface FindingRowView {
  key: string;
  /** what it is about, in text: the repair button's and the confirmation's name for it */
  subject: string;
  /** the "Concerns" cell: the subject, with a link where there is one */
  concerns: ReactNode;
  explanation: string;
  repairDescription: string;
  repairable: boolean;
}

/** What a check found and repaired came to nothing left: said instead of an empty list. */
export function NoFindingsLeft({ resolved }: { resolved: number }) {
  return (
    <p className="rounded-md border border-dashed border-zinc-300 bg-white px-6 py-8 text-center dark:border-zinc-700 dark:bg-zinc-900">
      {resolved === 0
        ? 'No problems found. The layout is consistent.'
        : 'Everything the check found was repaired or was no longer broken. Run the check again to confirm.'}
    </p>
  );
}

/** The findings of one kind: a section titled with the kind and its severity, a row each, a Repair button on each repairable row. */
export function FindingGroup<F>({
  title,
  severity,
  findings,
  view,
  action,
  canChange,
  busy,
  onRepair,
}: {
  title: string;
  severity: Severity;
  findings: readonly F[];
  view: (finding: F) => FindingRowView;
  /** the section's own button (repairing the group), when there is one */
  action: ReactNode;
  canChange: boolean;
  busy: boolean;
  onRepair: (finding: F) => void;
}) {
  return (
    <Section
      title={
        <>
          {title} ({findings.length}){' '}
          <span className={`ml-2 rounded px-2 py-0.5 align-middle text-xs font-medium uppercase ${SEVERITY_LOOK[severity]}`}>{severity}</span>
        </>
      }
      actions={canChange && action}
    >
      <DataTable
        label={title}
        minWidthClass="min-w-[48rem]"
        stacked
        head={
          <>
            <HeaderCell>Concerns</HeaderCell>
            <HeaderCell>What is wrong</HeaderCell>
            <HeaderCell>Repair</HeaderCell>
            {canChange && (
              <HeaderCell>
                <span className="sr-only">Actions</span>
              </HeaderCell>
            )}
          </>
        }
      >
        {findings.map((finding) => {
          const row = view(finding);
          return (
            <tr key={row.key}>
              <Cell>{row.concerns}</Cell>
              <Cell label="What is wrong">{row.explanation}</Cell>
              <Cell label="Repair">{row.repairDescription}</Cell>
              {canChange && (
                <Cell>
                  {row.repairable ? (
                    <button
                      type="button"
                      className="button-secondary whitespace-nowrap"
                      aria-label={`Repair ${row.subject}`}
                      onClick={() => onRepair(finding)}
                      disabled={busy}
                    >
                      Repair
                    </button>
                  ) : (
                    <span className="text-xs text-zinc-600 dark:text-zinc-400">report only</span>
                  )}
                </Cell>
              )}
            </tr>
          );
        })}
      </DataTable>
    </Section>
  );
}

/** The confirmation before repairs: what each will change, the first few by name. */
export function RepairConfirmation<F>({
  pending,
  view,
  busy,
  more,
  footnote,
  onConfirm,
  onCancel,
}: {
  pending: readonly F[] | null;
  view: (finding: F) => FindingRowView;
  busy: boolean;
  /** what follows "…and N more" */
  more: string;
  footnote: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const count = pending?.length ?? 0;
  return (
    <ConfirmDialog
      open={pending !== null}
      title={count === 1 ? `Repair ${view(pending![0]!).subject}?` : `Repair ${plural(count, 'finding')}?`}
      confirmLabel="Repair"
      busyLabel="Repairing…"
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>This will change:</p>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        {(pending ?? [])
          .slice(0, LISTED)
          .map(view)
          .map((row) => (
            <li key={row.key}>{row.repairDescription}</li>
          ))}
      </ul>
      {count > LISTED && (
        <p className="mt-2">
          …and {count - LISTED} {more}.
        </p>
      )}
      <p className="mt-2">{footnote}</p>
    </ConfirmDialog>
  );
}
