/** Notification auto-stop (adverts-articles.md §4). Times are epoch seconds (spec §3). */

export const NOTIFICATION_STOP_DAYS_ADVERT = 7;
const SECONDS_PER_DAY = 86_400;

/**
 * Setting a notification's start date sets its stop date: start + 7 days in the advert editor, one calendar
 * month after the start in the article editor (same day and time of the next month, the month's last day when
 * it is shorter).
 */
export function notificationAutoStop(startSeconds: number, kind: 'advert' | 'article'): number {
  if (kind === 'advert') return startSeconds + NOTIFICATION_STOP_DAYS_ADVERT * SECONDS_PER_DAY;
  const start = new Date(startSeconds * 1000);
  const target = new Date(start.getTime());
  target.setDate(1);
  target.setMonth(start.getMonth() + 1);
  const lastDay = new Date(target.getFullYear(), target.getMonth() + 1, 0).getDate();
  target.setDate(Math.min(start.getDate(), lastDay));
  return Math.floor(target.getTime() / 1000);
}
