import type { AudienceType, NodeLabel } from '@shared/rules/audiences';

/** How the screens show the audience vocabulary. */

export const TYPE_LABELS: Record<AudienceType, string> = {
  timeline: 'Timeline',
  search: 'Search',
  story: 'Story',
  notification: 'Notification',
  banner: 'Banner',
  tool: 'Tool',
};

/** Spec §3: OrGroup is displayed as "Appetence". */
export function labelName(label: NodeLabel): string {
  return label === 'OrGroup' ? 'Appetence' : label;
}
