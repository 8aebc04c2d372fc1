import { useAtomValue } from 'jotai';
import { editedTargetsAtom } from '../edit-atoms';

/** The target grid of the project editor. */
export function TargetGrid() {
  const targets = useAtomValue(editedTargetsAtom);
  return (
    <table className="target-grid" data-testid="target-grid">
      <tbody>
        {targets.map((target) => (
          <tr key={target.id}>
            <td>{target.actionCode}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
