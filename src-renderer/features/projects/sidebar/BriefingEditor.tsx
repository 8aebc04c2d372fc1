import { $toggleLink, AutoLinkNode, LinkNode } from '@lexical/link';
import { INSERT_ORDERED_LIST_COMMAND, INSERT_UNORDERED_LIST_COMMAND, ListItemNode, ListNode, REMOVE_LIST_COMMAND } from '@lexical/list';
import { LexicalComposer } from '@lexical/react/LexicalComposer';
import { useLexicalComposerContext } from '@lexical/react/LexicalComposerContext';
import { ContentEditable } from '@lexical/react/LexicalContentEditable';
import { LexicalErrorBoundary } from '@lexical/react/LexicalErrorBoundary';
import { HistoryPlugin } from '@lexical/react/LexicalHistoryPlugin';
import { LinkPlugin } from '@lexical/react/LexicalLinkPlugin';
import { ListPlugin } from '@lexical/react/LexicalListPlugin';
import { OnChangePlugin } from '@lexical/react/LexicalOnChangePlugin';
import { RichTextPlugin } from '@lexical/react/LexicalRichTextPlugin';
import { HeadingNode, QuoteNode } from '@lexical/rich-text';
import { $getSelection, $isRangeSelection, $setSelection, FORMAT_TEXT_COMMAND, type BaseSelection } from 'lexical';
import { useRef, useState } from 'react';
import { Link, X } from 'lucide-react';
import { PROJECT_MESSAGES } from '@shared/messages/projects';

/** Links the briefing keeps (the server drops any other scheme, spec-side sanitising in briefing.ts). */
const SAFE_LINK = /^(https?:\/\/|mailto:)\S+$/i;
export const isSafeBriefingLink = (url: string) => SAFE_LINK.test(url.trim());
/** A typed address to refuse aloud: anything but the field's starting 'https://' (or nothing) that is not safe. */
const linkRefused = (url: string) => !['', 'https://', 'http://'].includes(url.trim()) && !isSafeBriefingLink(url);

const THEME = {
  paragraph: 'briefing-paragraph',
  heading: { h1: 'briefing-h1', h2: 'briefing-h2', h3: 'briefing-h3' },
  list: { ul: 'briefing-ul', ol: 'briefing-ol', listitem: 'briefing-li' },
  link: 'briefing-link',
  text: { bold: 'briefing-bold', italic: 'briefing-italic', underline: 'briefing-underline' },
};

/**
 * The briefing's rich-text editor (spec §4; Lexical): bold, italic, bulleted and numbered lists, links. It starts
 * from `initialState` (the saved briefing or the default template) and reports every change as Lexical JSON.
 */
export function BriefingEditor(props: { initialState: Record<string, unknown>; onChange(state: Record<string, unknown>): void }) {
  const initialConfig = {
    namespace: 'project-briefing',
    theme: THEME,
    nodes: [HeadingNode, QuoteNode, ListNode, ListItemNode, LinkNode, AutoLinkNode],
    editorState: JSON.stringify(props.initialState),
    onError(error: Error) {
      // A broken state must not take the page down: the boundary below shows nothing for the editor.
      console.error('briefing editor', error);
    },
  };
  return (
    <LexicalComposer initialConfig={initialConfig}>
      <div className="briefing-editor" data-testid="briefing-editor">
        <Toolbar />
        <RichTextPlugin
          contentEditable={<ContentEditable className="briefing-content" aria-label="Briefing" data-testid="briefing-content" />}
          ErrorBoundary={LexicalErrorBoundary}
        />
        <HistoryPlugin />
        <ListPlugin />
        <LinkPlugin validateUrl={isSafeBriefingLink} />
        <OnChangePlugin ignoreSelectionChange onChange={(state) => props.onChange(state.toJSON() as unknown as Record<string, unknown>)} />
      </div>
    </LexicalComposer>
  );
}

function Toolbar() {
  const [editor] = useLexicalComposerContext();
  const [linkUrl, setLinkUrl] = useState<string | null>(null);
  // The text selected when the link field opened: focusing the field takes the selection away from the editor.
  const savedSelection = useRef<BaseSelection | null>(null);

  const openLink = () => {
    savedSelection.current = editor.getEditorState().read(() => $getSelection()?.clone() ?? null);
    setLinkUrl('https://');
  };
  const applyLink = (url: string | null) => {
    editor.update(() => {
      if (savedSelection.current) $setSelection(savedSelection.current.clone());
      const selection = $getSelection();
      if ($isRangeSelection(selection)) $toggleLink(url);
    });
    setLinkUrl(null);
    editor.focus();
  };

  return (
    <div className="briefing-toolbar" role="toolbar" aria-label="Mise en forme">
      <button
        type="button"
        title="Gras"
        aria-label="Gras"
        data-testid="briefing-bold"
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => editor.dispatchCommand(FORMAT_TEXT_COMMAND, 'bold')}
      >
        <b>B</b>
      </button>
      <button
        type="button"
        title="Italique"
        aria-label="Italique"
        data-testid="briefing-italic"
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => editor.dispatchCommand(FORMAT_TEXT_COMMAND, 'italic')}
      >
        <i>I</i>
      </button>
      <button
        type="button"
        title="Liste à puces"
        aria-label="Liste à puces"
        data-testid="briefing-bullets"
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => editor.dispatchCommand(INSERT_UNORDERED_LIST_COMMAND, undefined)}
      >
        • —
      </button>
      <button
        type="button"
        title="Liste numérotée"
        aria-label="Liste numérotée"
        data-testid="briefing-numbers"
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => editor.dispatchCommand(INSERT_ORDERED_LIST_COMMAND, undefined)}
      >
        1.
      </button>
      <button
        type="button"
        title="Retirer la liste"
        aria-label="Retirer la liste"
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => editor.dispatchCommand(REMOVE_LIST_COMMAND, undefined)}
      >
        ¶
      </button>
      <button type="button" title="Lien" aria-label="Lien" data-testid="briefing-link" onMouseDown={(e) => e.preventDefault()} onClick={openLink}>
        <Link size={14} aria-hidden />
      </button>
      {linkUrl !== null && (
        <span className="briefing-link-form">
          <input
            type="url"
            value={linkUrl}
            autoFocus
            aria-label="Adresse du lien"
            data-testid="briefing-link-url"
            onChange={(event) => setLinkUrl(event.target.value)}
            onKeyDown={(event) => {
              if (event.key !== 'Enter' && event.key !== 'Escape') return;
              // The key must not reach the editor once it has the focus back: Enter would replace the linked text.
              event.preventDefault();
              if (event.key === 'Escape') setLinkUrl(null);
              else if (isSafeBriefingLink(linkUrl)) applyLink(linkUrl.trim());
            }}
          />
          <button type="button" disabled={!isSafeBriefingLink(linkUrl)} data-testid="briefing-link-apply" onClick={() => applyLink(linkUrl.trim())}>
            OK
          </button>
          <button type="button" title="Retirer le lien" aria-label="Retirer le lien" onClick={() => applyLink(null)}>
            <X size={14} aria-hidden />
          </button>
          {/* Said, not only a greyed OK: an address typed that the briefing would not keep. */}
          {linkRefused(linkUrl) && (
            <span className="field-error" role="alert" data-testid="briefing-link-error">
              {PROJECT_MESSAGES.briefingLinkRefused}
            </span>
          )}
        </span>
      )}
    </div>
  );
}
