import { DeletedAudiencesPanel as Panel } from './audience-history';

/**
 * Deleted audiences with who deleted them and when, and a Restaurer button (docs/audience-history.md; ADMIN only: render it
 * for ADMIN, the server refuses the others). For the audience list, e.g. under its table.
 */
export default function DeletedAudiencesPanel(props: { onRestored?: (audienceId: number) => void }) {
  return <Panel onRestored={props.onRestored} />;
}
