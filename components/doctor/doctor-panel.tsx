'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { repairLayoutCheckFindings, runLayoutCheckStep } from '@/app/doctor/actions';
import { JobLink } from '@/components/queues/job-link';
import { ChangeControls, useChangePermission } from '@/components/shell/change-permission';
import { Banner } from '@/components/ui/banner';
import { useToast } from '@/components/ui/toaster';
import { LAYOUT_REPAIRS_PER_CALL, type RepairOutcome, type ShownFinding } from '@/lib/shapes/layout-check';
import type { Severity } from '@/lib/shapes/doctor-kinds';
import { getTabConnection } from '@/lib/queries/tab-connection';
import { plural } from '@/components/ui/format-count';
import { FindingGroup, NoFindingsLeft, RepairConfirmation, type FindingRowView } from './findings-view';
import { useSteppedCheck } from './use-doctor-check';

const SEVERITY_ORDER: Severity[] = ['critical', 'warning', 'info'];

const stepCheck = (run: string | null) => runLayoutCheckStep({ run }, getTabConnection());
const idOf = (finding: ShownFinding) => finding.id;
const FIRST_PROGRESS = 'Starting the check';

/** A finding's row: named by its job where the layout's doctor names findings so (StaticPHP's), linked to the job's page; else by its subject. */
const rowOf = (finding: ShownFinding): FindingRowView => ({
  key: finding.id,
  subject: finding.job !== undefined ? `job ${finding.job}` : finding.subject,
  concerns: (
    <>
      {finding.job !== undefined && (
        <>
          <JobLink id={finding.job} />
          <br />
        </>
      )}
      <span className="font-mono text-xs break-all">{finding.subject}</span>
    </>
  ),
  explanation: finding.explanation,
  repairDescription: finding.repairDescription,
  repairable: finding.repairable,
});

interface Group {
  kind: string;
  title: string;
  severity: Severity;
  findings: ShownFinding[];
}

function groupsOf(findings: readonly ShownFinding[]): Group[] {
  const byKind = new Map<string, Group>();
  for (const finding of findings) {
    const group = byKind.get(finding.kind) ?? { kind: finding.kind, title: finding.title, severity: finding.severity, findings: [] };
    group.findings.push(finding);
    byKind.set(finding.kind, group);
  }
  return [...byKind.values()].sort((a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity));
}

function summaryOf(counts: Record<RepairOutcome, number>): string {
  const parts = [
    `Repaired ${plural(counts.repaired, 'finding')}`,
    counts.gone > 0 && `${plural(counts.gone, 'was', 'were')} no longer broken and left alone`,
    counts['not-repairable'] > 0 && `${plural(counts['not-repairable'], 'has', 'have')} no repair`,
    counts.unknown > 0 && `${plural(counts.unknown, 'is', 'are')} no longer known to this check (run it again)`,
  ].filter(Boolean);
  return `${parts.join('; ')}.`;
}

/**
 * `/doctor`, for every layout: run the connection's check step by step on
 * the server, read what it found, repair a finding, those of a kind or all
 * of them after a confirmation. The page holds findings only to show them; a
 * repair names finding ids, and the server applies the repair its own check
 * kept.
 */
export function DoctorPanel({ description }: { description: string }) {
  const { check, run, cancel, resolve } = useSteppedCheck(stepCheck, idOf, FIRST_PROGRESS);
  const toast = useToast();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<ShownFinding[] | null>(null);
  const [busy, setBusy] = useState(false);
  const canChange = useChangePermission().allowed;
  const groups = groupsOf(check.findings);
  const repairable = check.findings.filter((finding) => finding.repairable);

  async function repair(findings: ShownFinding[]) {
    if (check.run === null) return;
    setBusy(true);
    const counts: Record<RepairOutcome, number> = { repaired: 0, gone: 0, 'not-repairable': 0, unknown: 0 };
    const settled = new Set<string>();
    let error: string | null = null;
    try {
      for (let start = 0; start < findings.length; start += LAYOUT_REPAIRS_PER_CALL) {
        const batch = findings.slice(start, start + LAYOUT_REPAIRS_PER_CALL).map(idOf);
        const result = await repairLayoutCheckFindings({ run: check.run, findings: batch }, getTabConnection());
        if (!result.ok) {
          error = result.error;
          break;
        }
        for (const { id, outcome } of result.outcomes) {
          counts[outcome] += 1;
          if (outcome !== 'not-repairable') settled.add(id);
        }
      }
    } catch {
      error = 'Cannot reach the QueueLens server; it may be restarting.';
    }
    resolve(settled);
    // A repair can change any page's data (counts, lines, a job): every live query is refreshed.
    void queryClient.invalidateQueries();
    setBusy(false);
    setPending(null);
    const summary = summaryOf(counts);
    if (error) toast.error(settled.size > 0 ? `${error} (${summary})` : error);
    else toast.success(summary);
  }

  return (
    <div className="space-y-5">
      <h1 className="text-2xl font-semibold tracking-tight">Doctor</h1>
      <p className="max-w-3xl text-sm text-zinc-600 dark:text-zinc-400">{description}</p>
      <div className="flex flex-wrap items-center gap-3">
        <button type="button" className="button-primary" onClick={() => void run()} disabled={check.running}>
          {check.done || check.cancelled ? 'Run check again' : 'Run check'}
        </button>
        {check.running && (
          <button type="button" className="button-secondary" onClick={cancel}>
            Stop
          </button>
        )}
        {canChange && repairable.length > 0 && !check.running && (
          <button type="button" className="button-secondary" onClick={() => setPending(repairable)} disabled={busy}>
            Repair all {repairable.length}
          </button>
        )}
        <p role="status" aria-live="polite" aria-busy={check.running} className="text-sm text-zinc-600 dark:text-zinc-400">
          {check.running ? `${check.progress}…` : check.cancelled ? `Stopped. ${check.progress}.` : check.done ? `${check.progress}.` : ''}
        </p>
      </div>
      {check.findings.length > 0 && <ChangeControls />}
      {check.error && <Banner title="The check could not finish">{check.error}</Banner>}
      {check.notKept > 0 && (
        <Banner title="Not every finding is listed">
          The check found {plural(check.notKept, 'more finding')} than it keeps to list. Repair these, then run the check again, or use{' '}
          <span className="font-mono">queuelens doctor --repair</span>.
        </Banner>
      )}
      {check.done && check.findings.length === 0 && <NoFindingsLeft resolved={check.resolved} />}
      {groups.map(({ kind, title, severity, findings }) => {
        const fixable = findings.filter((finding) => finding.repairable);
        return (
          <FindingGroup
            key={kind}
            title={title}
            severity={severity}
            findings={findings}
            view={rowOf}
            canChange={canChange}
            busy={busy}
            onRepair={(finding) => setPending([finding])}
            action={
              fixable.length > 1 && (
                <button type="button" className="button-secondary" onClick={() => setPending(fixable)} disabled={busy}>
                  Repair all {fixable.length} of this kind
                </button>
              )
            }
          />
        );
      })}
      <RepairConfirmation
        pending={pending}
        view={rowOf}
        busy={busy}
        more="more"
        footnote="Each repair is the one this check proposed, applied by a script that checks again first and leaves alone whatever is no longer broken."
        onConfirm={() => void repair(pending ?? [])}
        onCancel={() => setPending(null)}
      />
    </div>
  );
}
