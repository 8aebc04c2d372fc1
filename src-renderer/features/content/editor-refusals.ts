import type { Setter, WritableAtom } from 'jotai';
import type { IpcResult } from '@shared/ipc';
import { ADVERT_SCREEN_NOTICES as N } from '@shared/messages/advert-screens';
import { ADVERT_MESSAGES } from '@shared/messages/adverts';
import { CONTENT_FIELD_MESSAGES, contentFieldLabel, contentFieldPath } from '@shared/messages/content-fields';
import { VALIDATION_MESSAGES } from '@shared/messages/validation';
import { CONTENT_URL_FIELDS, invalidUrlFields } from '@shared/rules/content-urls';
import { missingRequired, requiredPropertiesMessage, requiredPropertyLabel, WARNING_SEPARATOR } from '@shared/rules/publication';
import { raiseNoticeAtom } from '../../lib/notices';
import type { ContentItem } from './types';

/**
 * What the editor says when a save or a publication is refused (docs/content.md, field labels): the toast, and
 * the message of each field it names at that field (docs/content.md, "The editor": every field error at the field, by its label).
 */

/** A refused call: the server's message as an error toast ('User not allowed' 3 s for SALES writes). */
export function refused(set: Setter, result: IpcResult<unknown>) {
  if (!result.ok) set(raiseNoticeAtom, result.status === 403 ? N.userNotAllowed : N.serverError(result.errorMsg));
}

type HighlightAtom = WritableAtom<null, [string[], Record<string, string>?], void>;

/** A refusal naming a field (a validation answer): its message at the field as well as in the toast. */
export function refusedAt(set: Setter, highlightFieldsAtom: HighlightAtom, result: IpcResult<unknown>) {
  refused(set, result);
  const field = !result.ok && result.field ? contentFieldPath(result.field) : null;
  if (field && !result.ok) set(highlightFieldsAtom, [field], { [field]: result.errorMsg });
}

/** What an address field holding no address says (docs/content.md, address fields). */
const urlMessage = (path: string) =>
  (CONTENT_URL_FIELDS[path] === 'link' ? CONTENT_FIELD_MESSAGES.invalidLink : CONTENT_FIELD_MESSAGES.invalidUrl)(contentFieldLabel(path));

/**
 * Why the advert may not go online before anything is sent (§5): an address field holding no address says so (it is
 * not 'required'), a video advert without its video says the spec's sentence, the other empty properties are listed
 * by their labels. Each field shows its own message. Null when nothing stops it.
 */
export function publishProblems(draft: ContentItem): { notice: ReturnType<typeof N.validation>; errors: Record<string, string> } | null {
  const badUrls = invalidUrlFields(draft);
  if (badUrls.length) {
    const errors = Object.fromEntries(badUrls.map((path) => [path, urlMessage(path)]));
    return { notice: N.validation(Object.values(errors)), errors };
  }
  const errors: Record<string, string> = {};
  const messages: string[] = [];
  const noVideo = draft.type === 'video' && !(draft.video ?? '').trim();
  if (noVideo) {
    messages.push(ADVERT_MESSAGES.videoRequired);
    errors.video = ADVERT_MESSAGES.videoRequired;
  }
  const missing = missingRequired(draft).filter((property) => !(noVideo && property.name === 'video'));
  if (missing.length) messages.push(requiredPropertiesMessage(missing.map(requiredPropertyLabel)));
  for (const property of missing) errors[property.paths[0]] = `${requiredPropertyLabel(property)} : ${VALIDATION_MESSAGES.required}`;
  return messages.length ? { notice: N.serverError(messages.join(WARNING_SEPARATOR)), errors } : null;
}
