import { AutoLinkNode, LinkNode } from '@lexical/link';
import { LexicalComposer } from '@lexical/react/LexicalComposer';
import { useLexicalComposerContext } from '@lexical/react/LexicalComposerContext';
import { ContentEditable } from '@lexical/react/LexicalContentEditable';
import { LexicalErrorBoundary } from '@lexical/react/LexicalErrorBoundary';
import { HistoryPlugin } from '@lexical/react/LexicalHistoryPlugin';
import { LinkPlugin } from '@lexical/react/LexicalLinkPlugin';
import { OnChangePlugin } from '@lexical/react/LexicalOnChangePlugin';
import { RichTextPlugin } from '@lexical/react/LexicalRichTextPlugin';
import type { LexicalEditor } from 'lexical';
import { useEffect } from 'react';

/** Links a text keeps (the server drops any other scheme). */
const SAFE_LINK = /^(https?:\/\/|mailto:)\S+$/i;
export const isSafeLink = (url: string) => SAFE_LINK.test(url.trim());

const THEME = {
  paragraph: 'bat-text-paragraph',
  link: 'bat-text-link',
  text: {
    bold: 'bat-bold',
    italic: 'bat-italic',
    underline: 'bat-underline',
    strikethrough: 'bat-strike',
    underlineStrikethrough: 'bat-underline-strike',
  },
};

function FocusReporter(props: { onFocus(editor: LexicalEditor): void }) {
  const [editor] = useLexicalComposerContext();
  const { onFocus } = props;
  useEffect(() => editor.registerRootListener((root) => root?.addEventListener('focus', () => onFocus(editor))), [editor, onFocus]);
  return null;
}

/**
 * A text item of the proof (§2.6): a Lexical editor starting from the saved state; every change is reported as
 * Lexical JSON, and the editor that has the focus is handed to the shared rich-text toolbar.
 */
export function TextItem(props: {
  id: string;
  content: Record<string, unknown> | null;
  onChange(state: Record<string, unknown>): void;
  onFocus(editor: LexicalEditor): void;
}) {
  const initialConfig = {
    namespace: `bat-text-${props.id}`,
    theme: THEME,
    nodes: [LinkNode, AutoLinkNode],
    editorState: props.content?.root ? JSON.stringify(props.content) : undefined,
    onError(error: Error) {
      console.error('BAT text', error);
    },
  };
  return (
    <LexicalComposer initialConfig={initialConfig}>
      <RichTextPlugin
        contentEditable={<ContentEditable className="bat-text-content bat-text-editable" aria-label="Texte" data-testid="bat-text-editable" />}
        ErrorBoundary={LexicalErrorBoundary}
      />
      <HistoryPlugin />
      <LinkPlugin validateUrl={isSafeLink} />
      <FocusReporter onFocus={props.onFocus} />
      <OnChangePlugin ignoreSelectionChange onChange={(state) => props.onChange(state.toJSON() as unknown as Record<string, unknown>)} />
    </LexicalComposer>
  );
}
