import type { ReactNode } from 'react';
import { styleObject } from './geometry';

type Node = { type?: string; children?: Node[]; text?: string; format?: number | string; style?: string; url?: string };

// Lexical's text format bits.
const BOLD = 1;
const ITALIC = 2;
const STRIKE = 4;
const UNDERLINE = 8;

function renderText(node: Node, key: number): ReactNode {
  const format = typeof node.format === 'number' ? node.format : 0;
  const decorations = [format & UNDERLINE ? 'underline' : '', format & STRIKE ? 'line-through' : ''].filter(Boolean).join(' ');
  return (
    <span
      key={key}
      style={{
        ...styleObject(node.style),
        fontWeight: format & BOLD ? 'bold' : undefined,
        fontStyle: format & ITALIC ? 'italic' : undefined,
        textDecoration: decorations || undefined,
      }}
    >
      {node.text}
    </span>
  );
}

function renderNode(node: Node, key: number): ReactNode {
  const children = (node.children ?? []).map(renderNode);
  if (node.type === 'text') return renderText(node, key);
  if (node.type === 'linebreak') return <br key={key} />;
  if (node.type === 'link' || node.type === 'autolink') {
    return (
      <a key={key} href={node.url} className="bat-text-link" target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    );
  }
  const align = typeof node.format === 'string' && node.format ? (node.format as 'left' | 'center' | 'right' | 'justify') : undefined;
  return (
    <p key={key} className="bat-text-paragraph" style={{ textAlign: align }}>
      {children.length ? children : <br />}
    </p>
  );
}

/** A text item drawn from its sanitised Lexical state, without an editor (the PDF pages). */
export function RichText({ state }: { state: Record<string, unknown> | null }) {
  const root = (state?.root as Node | undefined) ?? { children: [] };
  return <div className="bat-text-content">{(root.children ?? []).map(renderNode)}</div>;
}
