import type { ReactNode } from 'react';

type Node = Record<string, unknown>;

const FORMAT_BOLD = 1;
const FORMAT_ITALIC = 2;
const FORMAT_STRIKETHROUGH = 4;
const FORMAT_UNDERLINE = 8;
const SAFE_URL = /^(https?:\/\/|mailto:)/i;

function children(node: Node): Node[] {
  return Array.isArray(node.children) ? (node.children as Node[]).filter((child) => typeof child === 'object' && child !== null) : [];
}

function renderText(node: Node, key: number): ReactNode {
  const format = typeof node.format === 'number' ? node.format : 0;
  let content: ReactNode = typeof node.text === 'string' ? node.text : '';
  if (format & FORMAT_UNDERLINE) content = <u>{content}</u>;
  if (format & FORMAT_STRIKETHROUGH) content = <s>{content}</s>;
  if (format & FORMAT_ITALIC) content = <em>{content}</em>;
  if (format & FORMAT_BOLD) content = <strong>{content}</strong>;
  return <span key={key}>{content}</span>;
}

function renderNode(node: Node, key: number): ReactNode {
  const inner = () => children(node).map(renderNode);
  switch (node.type) {
    case 'text':
      return renderText(node, key);
    case 'linebreak':
      return <br key={key} />;
    case 'paragraph':
      return <p key={key}>{inner()}</p>;
    case 'heading': {
      const Tag = (typeof node.tag === 'string' && /^h[1-6]$/.test(node.tag) ? node.tag : 'h3') as 'h3';
      return <Tag key={key}>{inner()}</Tag>;
    }
    case 'quote':
      return <blockquote key={key}>{inner()}</blockquote>;
    case 'list':
      return node.listType === 'number' ? <ol key={key}>{inner()}</ol> : <ul key={key}>{inner()}</ul>;
    case 'listitem':
      return <li key={key}>{inner()}</li>;
    case 'link':
    case 'autolink': {
      const url = typeof node.url === 'string' ? node.url : '';
      // The server already keeps http(s) and mailto links only; checked again before it becomes an href.
      if (!SAFE_URL.test(url)) return <span key={key}>{inner()}</span>;
      return (
        <a key={key} href={url} target="_blank" rel="noopener noreferrer">
          {inner()}
        </a>
      );
    }
    default:
      return <span key={key}>{inner()}</span>;
  }
}

/**
 * The briefing's read view: the server-sanitised Lexical state rendered as React elements (never as HTML
 * strings), so nothing in a briefing can run in the page.
 */
export function BriefingView(props: { state: Record<string, unknown> }) {
  const root = props.state.root;
  const nodes = root && typeof root === 'object' ? children(root as Node) : [];
  return (
    <div className="briefing-view" data-testid="briefing-view">
      {nodes.map(renderNode)}
    </div>
  );
}
