'use client';

import { FILTER_INPUT, FilterField, UrlFilterForm } from '@/components/ui/url-filter-form';
import { AUDIT_RESULTS, isAuditFiltered, type AuditFilter } from '@/lib/queries/audit';
import { auditHref } from '@/lib/routes';
import { AUDIT_RESULT_LABELS } from './audit-table';

/**
 * The filter lives in the URL (`/audit?action=…&result=…&text=…`), so a view
 * of the log can be shared and survives a reload. `actions` are the names
 * the select offers: the audited actions and any found in the log.
 */
export function AuditFilterForm({ filter, actions }: { filter: AuditFilter; actions: readonly string[] }) {
  return (
    <UrlFilterForm label="Filter the audit log" submitLabel="Filter" filtered={isAuditFiltered(filter)} path={auditHref}>
      <FilterField label="Action">
        {(id) => (
          <select id={id} name="action" defaultValue={filter.action ?? ''} className={FILTER_INPUT}>
            <option value="">Any action</option>
            {actions.map((action) => (
              <option key={action} value={action}>
                {action}
              </option>
            ))}
          </select>
        )}
      </FilterField>
      <FilterField label="Result">
        {(id) => (
          <select id={id} name="result" defaultValue={filter.result ?? ''} className={FILTER_INPUT}>
            <option value="">Any result</option>
            {AUDIT_RESULTS.map((result) => (
              <option key={result} value={result}>
                {AUDIT_RESULT_LABELS[result]}
              </option>
            ))}
          </select>
        )}
      </FilterField>
      <FilterField label="Who, target or detail contains">
        {(id) => <input id={id} name="text" defaultValue={filter.text ?? ''} maxLength={1000} className={`${FILTER_INPUT} w-64`} />}
      </FilterField>
    </UrlFilterForm>
  );
}
