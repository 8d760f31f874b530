'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { repairFindings } from '@/app/doctor/actions';
import { JobLink } from '@/components/queues/job-link';
import { ChangeControls, useChangePermission } from '@/components/shell/change-permission';
import { Banner } from '@/components/ui/banner';
import { useToast } from '@/components/ui/toaster';
import { FINDING_KINDS, findingId, type Finding, type FindingKind } from '@/lib/inspect/doctor-kinds';
import { plural } from './finding-look';
import { FindingGroup, NoFindingsLeft, RepairConfirmation, type FindingRowView } from './findings-view';
import { useDoctorCheck } from './use-doctor-check';
import { getTabConnection } from '@/lib/queries/tab-connection';

/** Repairs per action call; each is its own short script. */
const REPAIRS_PER_CALL = 200;
function rowOf(finding: Finding): FindingRowView {
  return {
    key: findingId(finding),
    subject: finding.jobId !== undefined ? `job ${finding.jobId}` : finding.subject,
    concerns: (
      <>
        {finding.jobId !== undefined && (
          <>
            <JobLink id={finding.jobId} />
            <br />
          </>
        )}
        <span className="font-mono text-xs">{finding.subject}</span>
      </>
    ),
    explanation: finding.explanation,
    repairDescription: finding.repairDescription,
    repairable: finding.repair !== null,
  };
}

/** `/doctor`: run the consistency check, read what it found, repair it after a confirmation. */
export function DoctorPanel() {
  const { check, run, cancel, resolve } = useDoctorCheck();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<Finding[] | null>(null);
  const [busy, setBusy] = useState(false);
  const canChange = useChangePermission().allowed;

  const groups = (Object.keys(FINDING_KINDS) as FindingKind[])
    .map((kind) => ({ kind, findings: check.findings.filter((finding) => finding.kind === kind) }))
    .filter((group) => group.findings.length > 0);

  async function repair(findings: Finding[]) {
    setBusy(true);
    let repaired = 0;
    let unchanged = 0;
    const settled = new Set<string>();
    let error: string | null = null;
    try {
      for (let start = 0; start < findings.length; start += REPAIRS_PER_CALL) {
        const batch = findings.slice(start, start + REPAIRS_PER_CALL);
        const result = await repairFindings({ repairs: batch.map((finding) => finding.repair!) }, getTabConnection());
        if (!result.ok) {
          error = result.error;
          break;
        }
        result.outcomes.forEach((outcome, index) => {
          if (outcome) repaired += 1;
          else unchanged += 1;
          settled.add(findingId(batch[index]!));
        });
      }
    } catch {
      error = 'Cannot reach the QueueLens server; it may be restarting.';
    }
    resolve(settled);
    // A repair can change any page's data (queues, failed jobs, a job): every live query is refreshed.
    void queryClient.invalidateQueries();
    setBusy(false);
    setPending(null);
    const summary = `Repaired ${plural(repaired, 'finding')}${unchanged > 0 ? `; ${plural(unchanged, 'was', 'were')} no longer broken and left alone` : ''}.`;
    if (error) toast.error(repaired + unchanged > 0 ? `${error} (${summary})` : error);
    else toast.success(summary);
  }

  return (
    <div className="space-y-5">
      <h1 className="text-2xl font-semibold tracking-tight">Doctor</h1>
      <p className="max-w-3xl text-sm text-zinc-600 dark:text-zinc-400">
        Checks the whole key layout for what the driver should never leave behind: jobs nothing points at, entries and ids whose job is gone,
        unique keys held by the wrong job, a counter behind the highest id, keys of the wrong type. It reads in small bounded steps, so it is
        safe beside live workers; each repair is one script that checks again before it changes anything.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <button type="button" className="button-primary" onClick={() => void run()} disabled={check.running}>
          {check.done || check.cancelled ? 'Run check again' : 'Run check'}
        </button>
        {check.running && (
          <button type="button" className="button-secondary" onClick={cancel}>
            Stop
          </button>
        )}
        <p role="status" aria-live="polite" className="text-sm text-zinc-600 dark:text-zinc-400">
          {check.running ? `${check.progress}…` : check.cancelled ? `Stopped. ${check.progress}.` : check.done ? `${check.progress}.` : ''}
        </p>
      </div>
      {check.findings.length > 0 && <ChangeControls />}
      {check.error && <Banner title="The check could not finish">{check.error}</Banner>}
      {check.done && check.findings.length === 0 && <NoFindingsLeft resolved={check.resolved} />}
      {groups.map(({ kind, findings }) => {
        const repairable = findings.filter((finding) => finding.repair !== null);
        const { title, severity } = FINDING_KINDS[kind];
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
              repairable.length > 0 && (
                <button type="button" className="button-secondary" onClick={() => setPending(repairable)} disabled={busy}>
                  Repair all {repairable.length}
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
        more="more of the same kind"
        footnote="Each repair checks again first and leaves alone whatever is no longer broken."
        onConfirm={() => void repair(pending ?? [])}
        onCancel={() => setPending(null)}
      />
    </div>
  );
}
