'use client';

import { useId } from 'react';
import { UrlFilterForm } from '@/components/ui/url-filter-form';
import { AUDIT_RESULTS, isAuditFiltered, type AuditFilter } from '@/lib/queries/audit';
import { auditHref } from '@/lib/routes';
import { AUDIT_RESULT_LABELS } from './audit-table';

const FIELD = 'rounded border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-600 dark:bg-zinc-800';

/**
 * The filter lives in the URL (`/audit?action=…&result=…&text=…`), so a view
 * of the log can be shared and survives a reload. `actions` are the names
 * the select offers: the audited actions and any found in the log.
 */
export function AuditFilterForm({ filter, actions }: { filter: AuditFilter; actions: readonly string[] }) {
  const id = useId();
  return (
    <UrlFilterForm label="Filter the audit log" submitLabel="Filter" filtered={isAuditFiltered(filter)} path={auditHref}>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-action`} className="text-xs text-zinc-600 dark:text-zinc-400">
          Action
        </label>
        <select id={`${id}-action`} name="action" defaultValue={filter.action ?? ''} className={FIELD}>
          <option value="">Any action</option>
          {actions.map((action) => (
            <option key={action} value={action}>
              {action}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-result`} className="text-xs text-zinc-600 dark:text-zinc-400">
          Result
        </label>
        <select id={`${id}-result`} name="result" defaultValue={filter.result ?? ''} className={FIELD}>
          <option value="">Any result</option>
          {AUDIT_RESULTS.map((result) => (
            <option key={result} value={result}>
              {AUDIT_RESULT_LABELS[result]}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-text`} className="text-xs text-zinc-600 dark:text-zinc-400">
          Who, target or detail contains
        </label>
        <input id={`${id}-text`} name="text" defaultValue={filter.text ?? ''} maxLength={1000} className={`${FIELD} w-64`} />
      </div>
    </UrlFilterForm>
  );
}
