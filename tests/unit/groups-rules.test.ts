import { describe, expect, it } from 'vitest';
import { GROUP_MESSAGES, GROUP_NOTICES } from '@shared/messages';
import {
  addMembers,
  canCreateGroup,
  groupDisplay,
  groupEditorPath,
  groupSearchLimit,
  orderForGroupPage,
  preselectedResults,
  shouldSearchAccounts,
} from '@shared/rules/groups';

const node = (id: number, label: string) => ({ id, label, name: `${label} ${id}` });

describe('group screens rules (spec §2, §4, §5, §9)', () => {
  it('Create needs a name that is not blank', () => {
    expect(canCreateGroup('')).toBe(false);
    expect(canCreateGroup('   ')).toBe(false);
    expect(canCreateGroup(' Appétence ')).toBe(true);
  });

  it('orders group-page results Feed, Document, App, then the others, keeping the order within a label', () => {
    const results = [
      node(1, 'Specialty'),
      node(2, 'App'),
      node(3, 'Document'),
      node(4, 'Feed'),
      node(5, 'Document'),
      node(6, 'User'),
      node(7, 'Feed'),
    ];
    expect(orderForGroupPage(results).map((n) => n.id)).toEqual([4, 7, 3, 5, 2, 1, 6]);
    expect(orderForGroupPage([])).toEqual([]);
  });

  it('asks 100 documents, 25 of anything else', () => {
    expect(groupSearchLimit('Document')).toBe(100);
    expect(groupSearchLimit('Feed')).toBe(25);
    expect(groupSearchLimit(undefined)).toBe(25);
  });

  it('pre-selects every found document and nothing else', () => {
    expect([...preselectedResults([node(1, 'Feed'), node(2, 'Document'), node(3, 'App'), node(4, 'Document')])]).toEqual([2, 4]);
  });

  it('shows at most 40 members and says so at exactly 40 (and beyond, cut to 40)', () => {
    const members = (n: number) => Array.from({ length: n }, (_, i) => i);
    expect(groupDisplay(members(39))).toEqual({ shown: members(39), limited: false });
    expect(groupDisplay(members(40))).toEqual({ shown: members(40), limited: true });
    expect(groupDisplay(members(41)).shown).toHaveLength(40);
    expect(groupDisplay(members(41)).limited).toBe(true);
    expect(GROUP_MESSAGES.groupDisplayLimited).toBe('Affichage limité à 40 items');
  });

  it('never adds the same node twice (same id and label); a same id under another label is another node', () => {
    const member = (id: number, label: string) => ({ node: { id, label }, kind: 'required' });
    const members = [member(1, 'Feed'), member(2, 'Document')];
    expect(
      addMembers(members, [member(2, 'Document'), member(3, 'App'), member(3, 'App'), member(1, 'App')]).map((m) => `${m.node.label}${m.node.id}`),
    ).toEqual(['Feed1', 'Document2', 'App3', 'App1']);
  });

  it('searches test accounts from 3 characters, spaces around not counted', () => {
    expect(shouldSearchAccounts('ab')).toBe(false);
    expect(shouldSearchAccounts('  ab  ')).toBe(false);
    expect(shouldSearchAccounts('abc')).toBe(true);
  });

  it('links a group to its editor under its label', () => {
    expect(groupEditorPath({ id: 12, label: 'AndGroup' })).toBe('/group/AndGroup/12');
  });

  it('keeps the spec texts, kinds and durations', () => {
    expect(GROUP_MESSAGES.searchAccountPlaceholder).toBe('Rechercher un compte');
    expect(GROUP_MESSAGES.confirmResetInteractions).toBe('Réinitialiser les interactions ?');
    expect(GROUP_NOTICES.accountFailed).toMatchObject({ kind: 'error', durationMs: 3500 });
  });
});
