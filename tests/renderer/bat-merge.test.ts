import { describe, expect, it } from 'vitest';
import type { BatItem, BatPage } from '@shared/contract/bat';
import { mergeProof, plainText, withItem } from '../../src-renderer/features/bat/merge';

/** A text item whose words are `text` (the proof's rich state, one paragraph). */
const text = (i: string, words: string, x = 0): BatItem => ({
  i,
  x,
  y: 0,
  w: 4,
  h: 2,
  type: 'text',
  url: null,
  displayApp: false,
  content: { root: { type: 'root', children: [{ type: 'paragraph', children: [{ type: 'text', text: words }] }] } },
});
const proof = (...items: BatItem[]): BatPage[] => [{ page: 1, layers: [{ id: 7, level: 1, content: items }] }];

describe('mergeProof: the user’s unsaved items onto the proof someone else saved', () => {
  const base = proof(text('a', 'Bonjour'), text('b', 'Prix'));

  it('keeps the items only I changed or added, takes theirs where only they changed, and lists what both changed', () => {
    const mine = proof(text('a', 'Bonjour à tous'), text('b', 'Prix'), text('c', 'Nouveau'));
    const theirs = proof(text('a', 'Salut'), text('b', 'Prix : 10 €'));
    const { pages, conflicts } = mergeProof(base, mine, theirs);
    expect(pages[0].layers[0].content.map((item) => [item.i, plainText(item.content)])).toEqual([
      ['a', 'Bonjour à tous'],
      ['b', 'Prix : 10 €'],
      ['c', 'Nouveau'],
    ]);
    expect(conflicts).toEqual([{ page: 1, layerId: 7, i: 'a', mine: text('a', 'Bonjour à tous'), theirs: text('a', 'Salut') }]);
    // Taking theirs for that item replaces mine, and only it.
    const taken = withItem(pages, 7, 'a', conflicts[0].theirs);
    expect(taken[0].layers[0].content.map((item) => plainText(item.content))).toEqual(['Salut', 'Prix : 10 €', 'Nouveau']);
  });

  it('follows their deletion of an item I left alone, and lists their deletion of one I changed', () => {
    const mine = proof(text('a', 'Bonjour'), text('b', 'Prix changé'));
    const { pages, conflicts } = mergeProof(base, mine, proof());
    expect(pages[0].layers[0].content.map((item) => item.i)).toEqual(['b']);
    expect(conflicts).toEqual([{ page: 1, layerId: 7, i: 'b', mine: text('b', 'Prix changé'), theirs: null }]);
    expect(withItem(pages, 7, 'b', null)[0].layers[0].content).toEqual([]);
  });

  it('answers their layers untouched (the same objects) when I changed nothing there', () => {
    const theirs = proof(text('a', 'Salut'));
    const { pages, conflicts } = mergeProof(base, base, theirs);
    expect(pages[0].layers[0]).toBe(theirs[0].layers[0]);
    expect(conflicts).toEqual([]);
  });
});
