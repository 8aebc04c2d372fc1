import { HistoryPanel } from './audience-history';

/**
 * The audience editor's history panel (docs/audience-history.md): who changed the audience, when and what; an ADMIN
 * restores a deleted audience from it. `reloadKey` reloads it (e.g. the audience's last save).
 */
export default function AudienceHistoryPanel(props: { audienceId: number; reloadKey?: unknown; onRestored?: () => void }) {
  return <HistoryPanel subject={{ kind: 'audience', id: props.audienceId }} reloadKey={props.reloadKey} onRestored={props.onRestored} />;
}
