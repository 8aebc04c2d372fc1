import { ADMIN_MESSAGES } from './admin';
import { API_MESSAGES } from './api';
import { AUDIENCE_HISTORY_MESSAGES } from './audience-history';
import { ADVERT_MESSAGES } from './adverts';
import { AUDIENCE_MESSAGES } from './audiences';
import { DESKTOP_MESSAGES } from './desktop';
import { GROUP_MESSAGES } from './groups';
import { HOST_MESSAGES } from './host';
import { PLATFORM_MESSAGES } from './platform';

/**
 * User-facing texts, one file per feature (platform, admin, desktop, and one per product feature as it lands),
 * each with its notices (text + toast kind + duration) where the spec gives them. `MESSAGES` is the union, for
 * code that shows a text without a notice (server errors, forms). Spec texts stay letter for letter.
 */
export const MESSAGES = {
  ...PLATFORM_MESSAGES,
  ...ADMIN_MESSAGES,
  ...DESKTOP_MESSAGES,
  ...HOST_MESSAGES,
  ...API_MESSAGES,
  ...AUDIENCE_MESSAGES,
  ...AUDIENCE_HISTORY_MESSAGES,
  ...GROUP_MESSAGES,
  ...ADVERT_MESSAGES,
} as const;

export * from './notice';
export { PLATFORM_MESSAGES, PLATFORM_NOTICES } from './platform';
export { DESKTOP_MESSAGES } from './desktop';
export { EXPORT_MESSAGES, IMPORT_MESSAGES } from './files';
export { HOST_MESSAGES } from './host';
export { SETUP_MESSAGES } from './setup';
export { STREAM_MESSAGES } from './streams';
export { WORKPLACE_MESSAGES, WORKPLACE_NOTICES } from './workplace';
export { AUDIENCE_MESSAGES, AUDIENCE_NOTICES } from './audiences';

export { VALIDATION_MESSAGES, FIELD_LABELS, describeIssue, type ValidationIssue } from './validation';
export { AUDIENCE_HISTORY_NOTICES } from './audience-history';
export { GROUP_MESSAGES, GROUP_NOTICES } from './groups';
