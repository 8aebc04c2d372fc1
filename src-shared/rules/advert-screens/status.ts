import { ADVERT_SCREEN_MESSAGES as M } from '../../messages/advert-screens';
import { formatDateTime } from '../dates';

/** Status icon (§2.1) and labels (§2.2) of adverts and articles (adverts-articles.md). Times are epoch seconds (spec §3). */

export interface ScheduleState {
  published?: boolean;
  autoStartAt?: number | null;
  autoStopAt?: number | null;
}

export type StatusIconKind = 'published-until' | 'scheduled' | 'schedule-missed' | 'published' | 'unpublished';
export interface StatusIcon {
  kind: StatusIconKind;
  color: 'green' | 'orange' | 'red' | 'grey';
  clock: boolean;
  /** What the icon means, for its tooltip and screen readers (not in the spec). */
  title: string;
}

/**
 * The five states of the list's status icon (§2.1): published with a stop date, green with a clock; unpublished
 * with a future start date, orange with a clock; unpublished with both dates (the start passed without
 * publication), red; published alone, green; unpublished alone, grey.
 */
export function statusIcon(item: ScheduleState, nowSeconds: number): StatusIcon {
  const start = item.autoStartAt ?? null;
  const stop = item.autoStopAt ?? null;
  if (item.published) {
    return stop !== null
      ? { kind: 'published-until', color: 'green', clock: true, title: 'Publié, dé-publication programmée' }
      : { kind: 'published', color: 'green', clock: false, title: 'Publié' };
  }
  if (start !== null && start > nowSeconds) return { kind: 'scheduled', color: 'orange', clock: true, title: 'Publication programmée' };
  if (start !== null && stop !== null)
    return { kind: 'schedule-missed', color: 'red', clock: false, title: 'Dates de programmation sans publication' };
  return { kind: 'unpublished', color: 'grey', clock: false, title: 'Non publié' };
}

/** The editor's labels (§2.2): Publié; 'Prog: {date}' for the auto start; 'Fin: {date}' for the auto stop. */
export function scheduleLabels(item: ScheduleState): string[] {
  const labels: string[] = [];
  if (item.published) labels.push(M.published);
  if (item.autoStartAt != null) labels.push(M.scheduledStart(formatDateTime(item.autoStartAt)));
  if (item.autoStopAt != null) labels.push(M.scheduledStop(formatDateTime(item.autoStopAt)));
  return labels;
}

export interface CampaignState {
  published?: boolean;
  publishedAt?: number | null;
  unpublishedAt?: number | null;
}

/** The campaign has started (publishedAt set) and not ended (no unpublishedAt). */
export const campaignRunning = (item: CampaignState) => item.publishedAt != null && item.unpublishedAt == null;

/**
 * The status label (§2.2): 'offline' when unpublished; 'publié' when published and the campaign started and not
 * ended; 'online' when published but with a campaign end or without a start.
 */
export function campaignStatus(item: CampaignState): 'offline' | 'online' | 'publié' {
  if (!item.published) return 'offline';
  return campaignRunning(item) ? 'publié' : 'online';
}

/** 'Démarrer la campagne' only when there is no publishedAt; 'Terminer la campagne' when started and not ended. */
export const canStartCampaign = (item: CampaignState) => item.publishedAt == null;
export const canEndCampaign = (item: CampaignState) => campaignRunning(item);
