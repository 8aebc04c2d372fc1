import { CONFLICT_MESSAGES } from '@shared/messages/conflicts';
import { HttpError } from '../../../errors';

/** A body's item fields as the content service takes them (the contract has checked their shape). */
export const asInput = (value: object | undefined) => (value ?? {}) as Record<string, unknown>;

/**
 * The version a save was based on (docs/architecture.md, "Versions and conflicts"): the body's `version`, or, when
 * the caller put it where the item's own schema shows it (`advert.version`, as the item is read), that one: it is
 * honoured, never silently dropped. Both given and different: 400 at the item's field, naming the body's.
 */
export function basedOnVersion(beside: number | undefined, item: { version?: number } | undefined, field: 'advert' | 'article'): number | undefined {
  const inside = item?.version;
  if (beside !== undefined && inside !== undefined && beside !== inside) {
    throw new HttpError(400, CONFLICT_MESSAGES.versionGivenTwice(`${field}.version`), {}, `${field}.version`);
  }
  return beside ?? inside;
}
