import { CONFLICT_MESSAGES as M } from '@shared/messages/conflicts';
import type { PresenceRecord } from '@shared/rules/presence';
import { usePresence } from '../lib/presence';

/** « {nom} modifie aussi cette publicité », one line per other person with the record open (lib/presence.ts). */
export function PresenceLine(props: { record: PresenceRecord; id: number | null }) {
  const names = usePresence(props.record, props.id);
  if (!names.length) return null;
  return (
    <div className="presence-line alert info" role="status" data-testid="presence-line">
      {names.map((name) => (
        <p key={name}>{M.alsoEditing(props.record, name)}</p>
      ))}
    </div>
  );
}
