import { useAtomValue, useSetAtom } from 'jotai';
import { useMemo, useState, type FormEvent } from 'react';
import { CONFLICT_MESSAGES } from '@shared/messages/conflicts';
import { LAB_MESSAGES as M } from '@shared/messages/laboratory';
import { isContentUrl } from '@shared/rules/content-urls';
import { parseFilter } from '@shared/rules/filter-language';
import { TAG_COUNT_DEBOUNCE_MS, TAG_LEVELS, TAG_TYPES, parseTagParams } from '@shared/rules/laboratory';
import { useQuery } from '../../lib/use-query';
import { Dialog } from '../../ui/Dialog';
import { TextField } from '../../ui/TextField';
import { countTagAtom, labProjectAtom, type TagDraft } from './atoms';

type Count =
  | { state: 'idle' }
  | { state: 'counting' }
  | { state: 'done'; usersCount: number }
  | { state: 'error'; message: string }
  /** The server out of reach: the tag may still be applied, Save counts it once the server answers. */
  | { state: 'offline' };

/**
 * The live count of a query while it is typed: checked here by the shared filter language first (its French
 * message names the position), then counted by the server 300 ms after the last key.
 */
function useLiveCount(query: string, params: string, fields: readonly string[]): Count {
  const count = useSetAtom(countTagAtom);
  const parsed = useMemo(() => parseFilter(query, fields), [query, fields]);
  const paramsValid = Boolean(parseTagParams(params));
  const countable = parsed.ok && paramsValid;
  // The server's answer, kept with the text it counted: an answer for a text typed over since is never shown.
  const { data: answer } = useQuery(
    ['lab.tagCount', query, params],
    async (): Promise<{ query: string; params: string; result: Count } | null> => {
      const reply = await count({ query, params });
      if (!reply) return null;
      return {
        query,
        params,
        result: reply.ok
          ? { state: 'done', usersCount: reply.data.usersCount }
          : reply.status === 0
            ? { state: 'offline' }
            : { state: 'error', message: reply.errorMsg },
      };
    },
    { enabled: countable, debounceMs: TAG_COUNT_DEBOUNCE_MS },
  );
  if (!parsed.ok) return { state: 'error', message: parsed.message };
  if (!paramsValid) return { state: 'error', message: M.invalidParams };
  return answer && answer.query === query && answer.params === params ? answer.result : { state: 'counting' };
}

/** The tag modal: every field of a tag (spec §3), its query and params with the live count; Valider keeps it for Save. */
export function TagDialog(props: { tag: TagDraft; readOnly: boolean; onApply: (tag: TagDraft) => void; onClose: () => void }) {
  const project = useAtomValue(labProjectAtom);
  const [draft, setDraft] = useState(props.tag);
  const fields = project?.fields ?? [];
  const count = useLiveCount(draft.query, draft.params, fields);
  // The app opens the link: a web address or one of its deeplinks, never 'javascript:…' or free text.
  const linkError = isContentUrl(draft.link, 'link') ? undefined : M.tagLinkInvalid;
  const set =
    <K extends keyof TagDraft>(key: K) =>
    (value: TagDraft[K]) =>
      setDraft((current) => ({ ...current, [key]: value }));

  function submit(event?: FormEvent) {
    event?.preventDefault();
    if (props.readOnly || count.state === 'error' || linkError) return;
    props.onApply({ ...draft, usersCount: count.state === 'done' ? count.usersCount : draft.usersCount });
  }

  return (
    <Dialog
      title={M.editTag}
      testId="lab-tag-dialog"
      onCancel={props.onClose}
      actions={
        <>
          <button type="button" className="secondary" onClick={props.onClose}>
            {M.cancel}
          </button>
          {!props.readOnly && (
            <button
              type="submit"
              form="lab-tag-form"
              className="primary"
              disabled={count.state === 'error' || count.state === 'counting' || Boolean(linkError)}
              data-testid="lab-tag-apply"
            >
              {M.ok}
            </button>
          )}
        </>
      }
    >
      <form id="lab-tag-form" className="form lab-tag-form" onSubmit={submit} noValidate>
        <TextField label={M.tagName} value={draft.name} onChange={set('name')} readOnly={props.readOnly} autoFocus testId="lab-tag-name" />
        <div className="lab-tag-row">
          <label className="field">
            <span className="field-label">{M.tagType}</span>
            <select
              value={draft.type}
              disabled={props.readOnly}
              onChange={(event) => set('type')(event.target.value as TagDraft['type'])}
              data-testid="lab-tag-type"
            >
              {TAG_TYPES.map((type) => (
                <option key={type}>{type}</option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field-label">{M.tagLevel}</span>
            <select
              value={draft.level}
              disabled={props.readOnly}
              onChange={(event) => set('level')(event.target.value as TagDraft['level'])}
              data-testid="lab-tag-level"
            >
              {TAG_LEVELS.map((level) => (
                <option key={level}>{level}</option>
              ))}
            </select>
          </label>
        </div>
        <label className="field">
          <span className="field-label">{M.tagContent}</span>
          <textarea
            rows={2}
            value={draft.content}
            readOnly={props.readOnly}
            onChange={(event) => set('content')(event.target.value)}
            data-testid="lab-tag-content"
          />
        </label>
        <div className="lab-tag-row">
          <TextField
            label={M.tagLinkTitle}
            value={draft.linkTitle}
            onChange={set('linkTitle')}
            readOnly={props.readOnly}
            testId="lab-tag-link-title"
          />
          <TextField
            label={M.tagLink}
            value={draft.link}
            onChange={set('link')}
            readOnly={props.readOnly}
            error={props.readOnly ? undefined : linkError}
            testId="lab-tag-link"
          />
        </div>
        <label className={count.state === 'error' ? 'field invalid' : 'field'}>
          <span className="field-label">{M.tagQuery}</span>
          <textarea
            rows={3}
            className="lab-query-input"
            value={draft.query}
            readOnly={props.readOnly}
            spellCheck={false}
            aria-describedby="lab-tag-count"
            onChange={(event) => set('query')(event.target.value)}
            data-testid="lab-tag-query"
          />
        </label>
        <label className="field">
          <span className="field-label">{M.tagParams}</span>
          <textarea
            rows={2}
            className="lab-query-input"
            value={draft.params}
            readOnly={props.readOnly}
            spellCheck={false}
            placeholder='{"region": "Île-de-France"}'
            onChange={(event) => set('params')(event.target.value)}
            data-testid="lab-tag-params"
          />
        </label>
        <p id="lab-tag-count" className={count.state === 'error' ? 'field-error' : 'lab-count'} role="status" data-testid="lab-tag-live-count">
          {count.state === 'counting' && M.counting}
          {count.state === 'done' && M.countLabel(count.usersCount)}
          {count.state === 'error' && count.message}
          {count.state === 'offline' && CONFLICT_MESSAGES.offline}
        </p>
        <p className="field-help lab-fields">
          {M.queryFields}
          {fields.join(', ')}
        </p>
      </form>
    </Dialog>
  );
}
