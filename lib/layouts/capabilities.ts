import { absentMembers, type Absent, type CapabilityName, type LayoutName } from './adapter';
import { lineRepairOffer } from './line-repairs';
import { LARAVEL_ABSENT, LARAVEL_WITHOUT_HORIZON_ABSENT } from './laravel/absent';
import { MARKO_ABSENT, MARKO_LINE_REPAIRS_ABSENT } from './marko/absent';
import type { LineRepairName, LineRepairOffer } from './pages';
import type { LayoutSettings } from './settings';
import { STATICPHP_ABSENT, STATICPHP_LINE_REPAIRS_ABSENT } from './staticphp/absent';
import { YII2_ABSENT } from './yii2/absent';

/** What a layout lacks, each with the sentence a page shows: the tables its adapter spreads, so the two cannot disagree. */
interface LayoutAbsences {
  readonly capabilities: Partial<Readonly<Record<CapabilityName, string>>>;
  /** the line repairs it lacks where it has lineRepairs */
  readonly lineRepairs: Partial<Readonly<Record<LineRepairName, Absent>>>;
}

const ABSENCES: Readonly<Record<LayoutName, LayoutAbsences>> = {
  staticphp: { capabilities: STATICPHP_ABSENT, lineRepairs: absentMembers(STATICPHP_LINE_REPAIRS_ABSENT) },
  yii2: { capabilities: YII2_ABSENT, lineRepairs: {} },
  'yii2-ng': { capabilities: YII2_ABSENT, lineRepairs: {} },
  marko: { capabilities: MARKO_ABSENT, lineRepairs: absentMembers(MARKO_LINE_REPAIRS_ABSENT) },
  laravel: { capabilities: LARAVEL_ABSENT, lineRepairs: {} },
};

/**
 * Why a connection laid out as `settings` says lacks `name`, in the words a
 * page shows; null when it has it. A fact of the layout, known without Redis,
 * so a page chooses its layout's view even while Redis cannot be reached.
 */
export function absentCapabilityOf(settings: LayoutSettings, name: CapabilityName): string | null {
  return capabilitiesAbsent(settings)[name] ?? null;
}

/** The capabilities `settings` lack: the layout's table, and for Laravel without Horizon's prefix its failed jobs too (a setting, so still known without Redis). */
function capabilitiesAbsent(settings: LayoutSettings): LayoutAbsences['capabilities'] {
  const table = ABSENCES[settings.layout].capabilities;
  return settings.layout === 'laravel' && settings.horizonPrefix === null ? { ...table, ...LARAVEL_WITHOUT_HORIZON_ABSENT } : table;
}

/** Which line repairs (lib/layouts/pages.ts LineRepairs) a page may offer on a connection laid out as `settings` says, known without Redis. */
export function lineRepairOfferOf(settings: LayoutSettings): LineRepairOffer {
  const whole = absentCapabilityOf(settings, 'lineRepairs');
  return lineRepairOffer(whole !== null ? { absent: whole } : ABSENCES[settings.layout].lineRepairs);
}
