import { $toggleLink } from '@lexical/link';
import { $patchStyleText } from '@lexical/selection';
import {
  $getSelection,
  $isRangeSelection,
  $setSelection,
  FORMAT_ELEMENT_COMMAND,
  FORMAT_TEXT_COMMAND,
  type BaseSelection,
  type LexicalEditor,
} from 'lexical';
import { AlignCenter, AlignJustify, AlignLeft, AlignRight, Bold, Italic, Link, Strikethrough, Underline } from 'lucide-react';
import { useRef, useState, type ReactNode } from 'react';
import { isSafeLink } from './TextItem';

const SIZES = ['12px', '14px', '16px', '18px', '24px', '32px', '48px'];

function ToolButton(props: { label: string; testId: string; onClick(): void; children: ReactNode; disabled?: boolean }) {
  return (
    <button
      type="button"
      className="icon-button"
      title={props.label}
      aria-label={props.label}
      data-testid={props.testId}
      disabled={props.disabled}
      onMouseDown={(event) => event.preventDefault()}
      onClick={props.onClick}
    >
      {props.children}
    </button>
  );
}

/**
 * The rich-text toolbar of the proof's texts (§2.6: bold, italic, underline, strike, size, align, link, colour,
 * background), acting on the text that last had the focus.
 */
export function TextToolbar({ editor }: { editor: LexicalEditor | null }) {
  // The link field being typed, with the toolbar only: transient like the Lexical selection kept beside it.
  const [linkUrl, setLinkUrl] = useState<string | null>(null);
  const saved = useRef<BaseSelection | null>(null);
  const disabled = !editor;

  const keepSelection = () => {
    saved.current = editor?.getEditorState().read(() => $getSelection()?.clone() ?? null) ?? null;
  };
  const patch = (style: Record<string, string>) =>
    editor?.update(() => {
      if (saved.current && !$isRangeSelection($getSelection())) $setSelection(saved.current.clone());
      const selection = $getSelection();
      if ($isRangeSelection(selection)) $patchStyleText(selection, style);
    });
  const applyLink = (url: string | null) => {
    editor?.update(() => {
      if (saved.current) $setSelection(saved.current.clone());
      if ($isRangeSelection($getSelection())) $toggleLink(url);
    });
    setLinkUrl(null);
  };
  const format = (kind: 'bold' | 'italic' | 'underline' | 'strikethrough') => editor?.dispatchCommand(FORMAT_TEXT_COMMAND, kind);
  const align = (kind: 'left' | 'center' | 'right' | 'justify') => editor?.dispatchCommand(FORMAT_ELEMENT_COMMAND, kind);

  return (
    <div className="bat-text-toolbar" role="toolbar" aria-label="Mise en forme du texte" data-testid="bat-text-toolbar">
      <ToolButton label="Gras" testId="bat-text-bold" disabled={disabled} onClick={() => format('bold')}>
        <Bold size={15} aria-hidden />
      </ToolButton>
      <ToolButton label="Italique" testId="bat-text-italic" disabled={disabled} onClick={() => format('italic')}>
        <Italic size={15} aria-hidden />
      </ToolButton>
      <ToolButton label="Souligné" testId="bat-text-underline" disabled={disabled} onClick={() => format('underline')}>
        <Underline size={15} aria-hidden />
      </ToolButton>
      <ToolButton label="Barré" testId="bat-text-strike" disabled={disabled} onClick={() => format('strikethrough')}>
        <Strikethrough size={15} aria-hidden />
      </ToolButton>
      <select
        aria-label="Taille du texte"
        data-testid="bat-text-size"
        disabled={disabled}
        defaultValue=""
        onMouseDown={keepSelection}
        onChange={(event) => {
          if (event.target.value) patch({ 'font-size': event.target.value });
          event.target.value = '';
        }}
      >
        <option value="">Taille</option>
        {SIZES.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </select>
      <ToolButton label="Aligner à gauche" testId="bat-text-align-left" disabled={disabled} onClick={() => align('left')}>
        <AlignLeft size={15} aria-hidden />
      </ToolButton>
      <ToolButton label="Centrer" testId="bat-text-align-center" disabled={disabled} onClick={() => align('center')}>
        <AlignCenter size={15} aria-hidden />
      </ToolButton>
      <ToolButton label="Aligner à droite" testId="bat-text-align-right" disabled={disabled} onClick={() => align('right')}>
        <AlignRight size={15} aria-hidden />
      </ToolButton>
      <ToolButton label="Justifier" testId="bat-text-align-justify" disabled={disabled} onClick={() => align('justify')}>
        <AlignJustify size={15} aria-hidden />
      </ToolButton>
      <ToolButton
        label="Lien"
        testId="bat-text-link"
        disabled={disabled}
        onClick={() => {
          keepSelection();
          setLinkUrl('https://');
        }}
      >
        <Link size={15} aria-hidden />
      </ToolButton>
      <label className="bat-colour" title="Couleur du texte">
        A
        <input
          type="color"
          aria-label="Couleur du texte"
          data-testid="bat-text-colour"
          disabled={disabled}
          onMouseDown={keepSelection}
          onChange={(e) => patch({ color: e.target.value })}
        />
      </label>
      <label className="bat-colour" title="Couleur de fond">
        ▇
        <input
          type="color"
          aria-label="Couleur de fond"
          data-testid="bat-text-background"
          disabled={disabled}
          defaultValue="#ffff00"
          onMouseDown={keepSelection}
          onChange={(e) => patch({ 'background-color': e.target.value })}
        />
      </label>
      {linkUrl !== null && (
        <span className="bat-link-form">
          <input
            type="url"
            value={linkUrl}
            autoFocus
            aria-label="Adresse du lien"
            data-testid="bat-text-link-url"
            onChange={(event) => setLinkUrl(event.target.value)}
            onKeyDown={(event) => {
              if (event.key !== 'Enter' && event.key !== 'Escape') return;
              event.preventDefault();
              event.stopPropagation();
              if (event.key === 'Escape') setLinkUrl(null);
              else if (isSafeLink(linkUrl)) applyLink(linkUrl.trim());
            }}
          />
          <button type="button" disabled={!isSafeLink(linkUrl)} data-testid="bat-text-link-apply" onClick={() => applyLink(linkUrl.trim())}>
            OK
          </button>
        </span>
      )}
    </div>
  );
}
