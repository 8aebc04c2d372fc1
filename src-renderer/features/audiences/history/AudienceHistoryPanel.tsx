/** Temporary stub: the history panel (issue 9 item 7) is built by another engineer and replaces this file at merge. */
export default function AudienceHistoryPanel(_props: { audienceId: number }) {
  return null;
}
