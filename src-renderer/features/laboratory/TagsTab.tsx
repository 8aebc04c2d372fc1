import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback } from 'react';
import { LAB_MESSAGES as M } from '@shared/messages/laboratory';
import { TAG_TYPES } from '@shared/rules/laboratory';
import { modalAtom } from '../../lib/modal';
import { addTagAtom, canWriteLabAtom, changeTagAtom, tagDraftsAtom, type TagDraft } from './atoms';
import { deleteTagAtom, discardNewTagAtom } from './save';
import { TagDialog } from './TagDialog';

/** The Tags tab: the tags by type, each with its level, query and count; add, edit (the tag modal), delete. */
export function TagsTab() {
  const tags = useAtomValue(tagDraftsAtom);
  const canWrite = useAtomValue(canWriteLabAtom);
  const add = useSetAtom(addTagAtom);
  const change = useSetAtom(changeTagAtom);
  const remove = useSetAtom(deleteTagAtom);
  const discard = useSetAtom(discardNewTagAtom);
  const setModal = useSetAtom(modalAtom);
  const close = useCallback(() => setModal(null), [setModal]);

  /** `added`: the tag 'Ajouter un tag' just made; cancelling its dialog takes it away again. */
  const edit = (tag: TagDraft, added = false) =>
    setModal(
      <TagDialog
        tag={tag}
        readOnly={!canWrite}
        onClose={() => {
          close();
          if (added) void discard(tag);
        }}
        onApply={(changed) => {
          change(changed);
          close();
        }}
      />,
    );

  return (
    <div className="lab-tags">
      {TAG_TYPES.map((type) => {
        const ofType = tags.filter((tag) => tag.type === type);
        return (
          <section key={type} className="lab-tag-group" aria-label={type} data-testid={`lab-tags-${type}`}>
            <div className="lab-tag-group-head">
              <h2>{type}</h2>
              {canWrite && (
                <button
                  type="button"
                  className="secondary"
                  onClick={async () => {
                    const created = await add(type);
                    if (created) edit(created, true);
                  }}
                  data-testid={`lab-add-tag-${type}`}
                >
                  {M.addTag}
                </button>
              )}
            </div>
            {ofType.length === 0 ? (
              <p className="lab-empty">{M.noTag}</p>
            ) : (
              <table className="lab-tag-table">
                <thead>
                  <tr>
                    <th>{M.tagName}</th>
                    <th>{M.tagLevel}</th>
                    <th>{M.tagQuery}</th>
                    <th className="number">{M.tagUsers}</th>
                    <th>
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {ofType.map((tag) => (
                    <tr key={tag.key} data-testid={`lab-tag-row-${tag.name || tag.key}`}>
                      <td>{tag.name || '—'}</td>
                      <td>{tag.level}</td>
                      <td>
                        <code className="lab-query">{tag.query}</code>
                      </td>
                      <td className="number" data-testid="lab-tag-count">
                        {tag.usersCount.toLocaleString('fr-FR')}
                      </td>
                      <td className="lab-actions">
                        <button type="button" className="link" onClick={() => edit(tag)} data-testid="lab-tag-edit">
                          {M.editTag}
                        </button>
                        {canWrite && (
                          <button type="button" className="link danger" onClick={() => void remove(tag)} data-testid="lab-tag-delete">
                            {M.delete}
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        );
      })}
    </div>
  );
}
