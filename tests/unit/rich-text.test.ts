import { describe, expect, it } from 'vitest';
import { PROOF_TEXT as PROOF } from '../../src-server/features/bat/handlers/editor';
import { BRIEFING_TEXT as BRIEFING } from '../../src-server/features/projects/handlers/shared';
import { sanitizeRichText, sanitizeTextStyle } from '../../src-server/rich-text';

/** The one Lexical sanitiser of the server, with the two editors' profiles (project briefing, proof text). */

const text = (value: string, extra = {}) => ({ type: 'text', text: value, format: 1, ...extra });
const root = (...children: unknown[]) => ({ root: { type: 'root', children } });

describe('rich text sanitiser', () => {
  it('keeps only plain font-size, color and background-color declarations', () => {
    expect(sanitizeTextStyle('color: #ff0000; background-image: url(x); font-size: 18px; position: fixed')).toBe('color: #ff0000; font-size: 18px;');
    expect(sanitizeTextStyle('font-size: expression(alert(1)); color: rgb(1, 2, 3)')).toBe('color: rgb(1, 2, 3);');
    expect(sanitizeTextStyle('behaviour')).toBe('');
  });

  it('drops unsafe links, scripts and unknown nodes, keeping their text, in both profiles', () => {
    const hostile = root(
      { type: 'script', children: [text('alert(1)')] },
      {
        type: 'paragraph',
        children: [
          { type: 'link', url: 'javascript:alert(1)', children: [text('clic')] },
          { type: 'link', url: 'https://example.com/a b', children: [text('espace')] },
          { type: 'link', url: 'https://example.com', title: 'Site', children: [text('site')] },
        ],
      },
    );
    for (const profile of [BRIEFING, PROOF]) {
      const stored = JSON.stringify(sanitizeRichText(hostile, profile));
      expect(stored).not.toMatch(/javascript:|"script"|a b/);
      expect(stored).toContain('"url":"https://example.com"');
      for (const kept of ['alert(1)', 'clic', 'espace', 'site']) expect(stored).toContain(kept);
    }
  });

  it('briefing: headings and lists kept, no style; proof: styles kept, headings unwrapped, paragraphs only', () => {
    const state = root(
      { type: 'heading', tag: 'h9', children: [text('Titre', { style: 'color: red' })] },
      { type: 'list', listType: 'number', children: [{ type: 'listitem', value: 0, children: [text('point')] }] },
    );
    const briefing = sanitizeRichText(state, BRIEFING).root.children as Record<string, unknown>[];
    expect(briefing.map((node) => node.type)).toEqual(['heading', 'list']);
    expect(briefing[0]).toMatchObject({ tag: 'h2', children: [{ text: 'Titre', style: '' }] });
    expect(briefing[1]).toMatchObject({ tag: 'ol', start: 1, children: [{ type: 'listitem', value: 1 }] });

    const proof = sanitizeRichText(state, PROOF).root.children as Record<string, unknown>[];
    expect(proof).toHaveLength(1);
    expect(proof[0]).toMatchObject({ type: 'paragraph', children: [{ text: 'Titre', style: 'color: red;' }, { text: 'point' }] });
    expect(sanitizeRichText(null, PROOF).root.children).toEqual([expect.objectContaining({ type: 'paragraph', children: [] })]);
    expect(sanitizeRichText(null, BRIEFING).root.children).toEqual([]);
  });

  it('cuts texts at the profile length', () => {
    const long = root({ type: 'paragraph', children: [text('x'.repeat(30_000))] });
    const cut = sanitizeRichText(long, PROOF).root.children as { children: { text: string }[] }[];
    expect(cut[0].children[0].text).toHaveLength(20_000);
  });
});
