import { DeletedAudiencesPanel as Panel } from './audience-history';

/**
 * Deleted audiences with who deleted them and when, and a Restaurer button (issue 9 item 7; ADMIN only: render it
 * for ADMIN, the server refuses the others). For the audience list, e.g. under its table.
 */
export default function DeletedAudiencesPanel(props: { onRestored?: (audienceId: number) => void }) {
  return <Panel onRestored={props.onRestored} />;
}
