/**
 * Campaign timing rules shared by adverts (adverts-articles.md §4 'Démarrer la campagne') and targets
 * (audiences-projects-tools.md §4 "Date and delay rules"): how late a campaign starts against the client's initial
 * quotation date, when a delay reason is required, and the revenue that delay costs.
 */

/** Spec §8 / §9 constants: the delay threshold and the day length used by every date rule. */
export const DELAY_THRESHOLD_DAYS = 15;
export const SECONDS_PER_DAY = 86_400;

/**
 * The fixed seven delay reasons (spec: "Exact wording: not shown"; these are the staff's French words for the
 * seven the spec names, in its order). Stored as the key; shown as the label.
 */
export const DELAY_REASONS = [
  { key: 'sales_broadcast_timing', label: 'Timing commercial et de diffusion interne' },
  { key: 'internal_production', label: 'Retard de production interne' },
  { key: 'provider_production', label: 'Retard de production prestataire' },
  { key: 'client_reactivity', label: 'Réactivité client' },
  { key: 'regulatory_validation', label: 'Validation réglementaire' },
  { key: 'content_availability', label: 'Disponibilité des contenus' },
  { key: 'review_rounds', label: 'Plus de 3 allers-retours de relecture' },
] as const;
export type DelayReason = (typeof DELAY_REASONS)[number]['key'];
export const DELAY_REASON_KEYS = DELAY_REASONS.map((reason) => reason.key) as [DelayReason, ...DelayReason[]];

/** The target's 'Raison du retard' modal prepends "Aucune", which stores null. */
export const NO_DELAY_REASON_LABEL = 'Aucune';

/** Whole days from the initial quotation date to the start (epoch seconds); null when either is missing. */
export function releaseDateDiff(initialQuotationDate: number | null | undefined, startDate: number | null | undefined): number | null {
  if (initialQuotationDate == null || startDate == null) return null;
  return Math.floor((startDate - initialQuotationDate) / SECONDS_PER_DAY);
}

/** Overdue: the start is more than 15 days after the initial quotation date; a delay reason is then required. */
export function isOverdue(initialQuotationDate: number | null | undefined, startDate: number | null | undefined): boolean {
  const diff = releaseDateDiff(initialQuotationDate, startDate);
  return diff !== null && diff > DELAY_THRESHOLD_DAYS;
}

/**
 * Revenue lost to the delay: 0 when the delay is at most 15 days or there is no revenue, else
 * revenue × (delay − 15) / days from start to end. Without a usable duration (no end date, or end not after the
 * start) the whole revenue cannot be spread, so the impact is null rather than a division by zero.
 */
export function revenueDelayImpact(input: {
  revenue: number | null | undefined;
  delayDays: number | null | undefined;
  startDate: number | null | undefined;
  endDate: number | null | undefined;
}): number | null {
  const { revenue, delayDays, startDate, endDate } = input;
  if (!revenue || delayDays == null || delayDays <= DELAY_THRESHOLD_DAYS) return 0;
  if (startDate == null || endDate == null) return null;
  const durationDays = (endDate - startDate) / SECONDS_PER_DAY;
  if (!(durationDays > 0)) return null;
  return (revenue * (delayDays - DELAY_THRESHOLD_DAYS)) / durationDays;
}
