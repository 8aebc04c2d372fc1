import { useSetAtom } from 'jotai';
import { modalAtom } from '../../lib/modal';
import { NewGroupDialog } from '../groups';
import { addKeywordAtom, createGroupAtom } from './atoms/criteria';
import { EmailListDialog, NewKeywordDialog } from './dialogs';

/** The buttons that add a criterion through a dialog: a new group, an e-mail list, a new keyword. */
export function NewCriterionButtons() {
  const setModal = useSetAtom(modalAtom);
  const createGroup = useSetAtom(createGroupAtom);
  const addKeyword = useSetAtom(addKeywordAtom);
  const closeModal = () => setModal(null);

  const openNewGroup = () =>
    setModal(
      <NewGroupDialog
        onClose={closeModal}
        onCreate={async (group) => {
          // Closes after the attempt either way: a failure shows in the editor's error line.
          await createGroup(group);
          return true;
        }}
      />,
    );
  const openNewKeyword = () =>
    setModal(
      <NewKeywordDialog
        onClose={closeModal}
        onAdd={async (keyword) => {
          await addKeyword(keyword);
          closeModal();
        }}
      />,
    );
  const openEmailList = () => setModal(<EmailListDialog onClose={closeModal} onAdded={closeModal} />);

  return (
    <div className="toolbar">
      <button type="button" className="secondary" onClick={openNewGroup} data-testid="audience-new-group">
        Nouveau groupe
      </button>
      <button type="button" className="secondary" onClick={openEmailList} data-testid="audience-new-list">
        Nouvelle liste
      </button>
      <button type="button" className="secondary" onClick={openNewKeyword} data-testid="audience-new-keyword">
        Nouveau mot-clé
      </button>
    </div>
  );
}
