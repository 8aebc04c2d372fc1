import { validateForSave, type ValidationResult } from '@shared/rules/advert-screens/save-checks';
import type { DelayReason } from '@shared/rules/campaigns';
import { advertPublicationProblems, articlePublicationProblems, WARNING_SEPARATOR } from '@shared/rules/publication';
import { scheduleErrors } from '@shared/rules/schedule';
import type { ContentItem, ContentKind } from './types';

/** Asks why a campaign starts late; null when the user cancels. */
export type AskDelayReason = () => Promise<DelayReason | null>;

/**
 * The checks of a save (§5), and the scheduling dates as their fields say them (a date in the past, a stop before
 * the start; those kept as `saved` holds them are not checked again): refused before the call, never 'Enregistré'.
 */
export function saveChecks(draft: ContentItem, kind: ContentKind, saved: ContentItem | null): ValidationResult {
  const check = validateForSave(draft, kind);
  for (const error of scheduleErrors(draft, saved, Math.floor(Date.now() / 1000))) {
    check.messages.push(error.message);
    check.fields.push(error.field);
  }
  return check;
}

/** What the server's publication checks would refuse of the saved item (§5), joined as warnings; null when nothing. */
export function publicationProblems(kind: ContentKind, item: ContentItem): string | null {
  const problems =
    kind === 'advert'
      ? advertPublicationProblems(item as unknown as Record<string, unknown>, item._$audiences ?? [])
      : articlePublicationProblems(item);
  return problems.length ? problems.join(WARNING_SEPARATOR) : null;
}
