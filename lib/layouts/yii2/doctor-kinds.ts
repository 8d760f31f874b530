import type { Finding, Severity } from '../../shapes/doctor-kinds';
import type { Yii2Repair } from './repairs';

// The yii2 doctor's findings as plain data (shared/spec/yii2-queue-redis-layout.md
// §4.5), in the shape every layout's doctor reports: no Redis in here.

export type Yii2FindingKind =
  | 'wrong-type'
  | 'message-id-behind'
  | 'stuck-moving-lock'
  | 'orphan-message'
  | 'duplicate-id'
  | 'dangling-id'
  | 'invalid-message'
  | 'score-outside-band'
  | 'leaked-entry'
  | 'overdue'
  | 'reservation-beyond-ttr'
  | 'stock-list-under-ng'
  | 'line-without-marker';

export type Yii2Finding = Finding<Yii2FindingKind, Yii2Repair>;

/** Each kind's severity and title, for grouping and for the CLI. */
export const YII2_FINDING_KINDS: Record<Yii2FindingKind, { severity: Severity; title: string }> = {
  'wrong-type': { severity: 'critical', title: 'Keys of the wrong type' },
  'message-id-behind': { severity: 'critical', title: 'message_id is behind the highest job id' },
  'stuck-moving-lock': { severity: 'critical', title: 'A moving_lock that never expires' },
  'orphan-message': { severity: 'warning', title: 'Messages no index holds' },
  'duplicate-id': { severity: 'warning', title: 'Jobs in two places at once' },
  'dangling-id': { severity: 'warning', title: 'Ids whose message is gone' },
  'invalid-message': { severity: 'warning', title: 'Messages without their <ttr>; prefix' },
  'score-outside-band': { severity: 'warning', title: "ng scores outside their priority's band" },
  'leaked-entry': { severity: 'info', title: 'attempts, priorities and ranks left for gone jobs' },
  overdue: { severity: 'info', title: 'Due jobs nobody has moved for over a minute' },
  'reservation-beyond-ttr': { severity: 'info', title: 'Reservations expiring later than their TTR allows' },
  'stock-list-under-ng': { severity: 'info', title: 'Jobs in the stock list of an ng channel' },
  'line-without-marker': { severity: 'info', title: "ng's line without its wake-up marker" },
};
