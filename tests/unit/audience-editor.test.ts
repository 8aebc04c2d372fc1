import { describe, expect, it } from 'vitest';
import {
  audienceFieldErrors,
  boldParts,
  canSave,
  emailColumn,
  eventsFor,
  groupByLabel,
  groupPageOrder,
  hasNode,
  isAudienceSearchTerm,
  keywordAllowed,
  keywordNeedsAdvice,
  nodeSearchTerm,
  normaliseKeyword,
  passesSearchFilters,
  targetsExperts,
} from '@shared/rules/audience-editor';
import type { NodeLabel } from '@shared/rules/audiences';

const rel = (id: number, label: NodeLabel, name = `n${id}`, kind: 'required' | 'not' = 'required') => ({ node: { id, label, name }, kind });

describe('audience editor rules', () => {
  it('groups relationships by label in the criteria order, keeping their order within a label', () => {
    const groups = groupByLabel([rel(1, 'Specialty'), rel(2, 'Profession'), rel(3, 'Specialty'), rel(4, 'OrGroup')]);
    expect(groups.map((group) => group.label)).toEqual(['Profession', 'Specialty', 'OrGroup']);
    expect(groups[1].relationships.map((r) => r.node.id)).toEqual([1, 3]);
    expect(groupByLabel([])).toEqual([]);
  });

  it('offers the events of each item label, none for attributes', () => {
    expect(eventsFor('Advert')).toEqual(['advert.view', 'advert.click', 'quiz.view', 'quiz.answered']);
    expect(eventsFor('Document')).toEqual(['document.view']);
    expect(eventsFor('Keyword')).toEqual(['search']);
    expect(eventsFor('Specialty')).toEqual([]);
  });

  it('normalises keywords (trimmed, lowercased) and advises against accents and capitals', () => {
    expect(normaliseKeyword('  Diabète Type 2 ')).toBe('diabète type 2');
    expect(keywordNeedsAdvice('diabete')).toBe(false);
    expect(keywordNeedsAdvice('Diabete')).toBe(true);
    expect(keywordNeedsAdvice('diabète')).toBe(true);
    expect(keywordAllowed('timeline')).toBe(false);
    expect(keywordAllowed('search')).toBe(true);
    expect(keywordAllowed(null)).toBe(true);
  });

  it('refuses to save without an area or without a criterion other than the area', () => {
    expect(canSave({ area: 'french', relationships: [] })).toBe(false);
    expect(canSave({ area: 'french', relationships: [rel(1, 'Area')] })).toBe(false);
    expect(canSave({ area: null, relationships: [rel(1, 'Profession')] })).toBe(false);
    expect(canSave({ area: 'french', relationships: [rel(1, 'Area'), rel(2, 'Profession')] })).toBe(true);
  });

  it('finds a node already in a group by id and label', () => {
    const list = [rel(5, 'Feed')];
    expect(hasNode(list, { id: 5, label: 'Feed' })).toBe(true);
    expect(hasNode(list, { id: 5, label: 'App' })).toBe(false);
    expect(hasNode(list, { id: 6, label: 'Feed' })).toBe(false);
  });

  it('says whether a relationship targets experts', () => {
    expect(targetsExperts([rel(1, 'Role', 'ROLE_EXPERT')])).toBe(true);
    expect(targetsExperts([rel(1, 'Role', 'ROLE_EXPERT', 'not')])).toBe(false);
    expect(targetsExperts([rel(1, 'Profession', 'ROLE_EXPERT')])).toBe(false);
  });

  it('runs node searches only for non-empty terms; audience search ignores colon, comma, apostrophe, parenthesis', () => {
    expect(nodeSearchTerm('   ')).toBeNull();
    expect(nodeSearchTerm(' cardio ')).toBe('cardio');
    expect(isAudienceSearchTerm('')).toBe(false);
    expect(isAudienceSearchTerm(':cardio')).toBe(false);
    expect(isAudienceSearchTerm('a,b')).toBe(false);
    expect(isAudienceSearchTerm("l'audience")).toBe(false);
    expect(isAudienceSearchTerm('cardio (fr)')).toBe(false);
    expect(isAudienceSearchTerm('cardio')).toBe(true);
  });

  it('applies the result filters: zip with two digits, no prospect role, company users outside the group page', () => {
    const options = { isGroupPage: false, companyDomains: ['exemple.fr'] };
    expect(passesSearchFilters({ label: 'Zip', name: '69' }, options)).toBe(true);
    expect(passesSearchFilters({ label: 'Zip', name: 'A' }, options)).toBe(false);
    expect(passesSearchFilters({ label: 'Role', name: 'ROLE_PROSPECT' }, options)).toBe(false);
    expect(passesSearchFilters({ label: 'User', name: 'dr@gmail.com' }, options)).toBe(false);
    expect(passesSearchFilters({ label: 'User', name: 'staff@Exemple.fr' }, options)).toBe(true);
    expect(passesSearchFilters({ label: 'User', name: 'dr@gmail.com' }, { ...options, isGroupPage: true })).toBe(true);
  });

  it('orders group-page results Feed, Document, App, then the others, stable within each', () => {
    const nodes = [rel(1, 'Specialty'), rel(2, 'App'), rel(3, 'Feed'), rel(4, 'Document'), rel(5, 'Feed'), rel(6, 'Role')].map((r) => r.node);
    expect(groupPageOrder(nodes).map((node) => node.id)).toEqual([3, 5, 4, 2, 1, 6]);
  });

  it('bolds the term in results only for terms of 3 or more characters, ignoring case and accents', () => {
    expect(boldParts('Cardiologie', 'ca')).toEqual([{ text: 'Cardiologie', bold: false }]);
    expect(boldParts('Cardiologie', 'car')).toEqual([
      { text: 'Car', bold: true },
      { text: 'diologie', bold: false },
    ]);
    expect(boldParts('Médecine générale', 'gene')).toEqual([
      { text: 'Médecine ', bold: false },
      { text: 'géné', bold: true },
      { text: 'rale', bold: false },
    ]);
    expect(boldParts('abcabc', 'abc').filter((part) => part.bold)).toHaveLength(2);
    expect(boldParts('Pneumologie', 'xyz')).toEqual([{ text: 'Pneumologie', bold: false }]);
  });

  it('finds the email column whatever its case', () => {
    expect(emailColumn(['Nom', ' Email '])).toBe(' Email ');
    expect(emailColumn(['email'])).toBe('email');
    expect(emailColumn(['emails', 'nom'])).toBeNull();
  });
});

describe("what 'Sauvegarder' refuses at the field", () => {
  it('asks for a type, and for a name once the audience is saved (a new one is named by the server)', () => {
    expect(audienceFieldErrors({ id: 3, name: 'Cardio', type: 'timeline' })).toEqual({});
    expect(audienceFieldErrors({ id: null, name: '', type: 'story' })).toEqual({});
    expect(audienceFieldErrors({ id: 3, name: '  ', type: null })).toEqual({
      name: "Nom de l'audience : champ obligatoire",
      type: 'Type : champ obligatoire',
    });
  });
});

describe('audience notices (spec §8)', () => {
  it('carry the exact texts, kinds and durations', async () => {
    const { AUDIENCE_NOTICES } = await import('@shared/messages');
    expect(AUDIENCE_NOTICES.loadFailed).toEqual({ text: "Erreur lors du chargement de l'audience", kind: 'warning', durationMs: 3000 });
    expect(AUDIENCE_NOTICES.sizeFailed).toEqual({ text: "erreur lors du calcul de la taille d'audience", kind: 'warning', durationMs: 3000 });
    expect(AUDIENCE_NOTICES.notSaved).toMatchObject({ text: 'Audience non sauvegardée', kind: 'warning' });
    expect(AUDIENCE_NOTICES.needsCriterion).toMatchObject({ text: "Associez un critère pour pouvoir sauvegarder l'audience", kind: 'warning' });
    expect(AUDIENCE_NOTICES.noEmailColumn).toMatchObject({ text: "Erreur: Le fichier ne contient pas de colonne 'emails'", durationMs: 3000 });
    for (const [made, text] of [
      [AUDIENCE_NOTICES.saved, 'Saved.'],
      [AUDIENCE_NOTICES.audienceSaved, 'Audience saved.'],
      [AUDIENCE_NOTICES.areaSaved, 'Area saved.'],
      [AUDIENCE_NOTICES.audienceDeleted('Cardio'), 'Audience Cardio supprimée'],
      [AUDIENCE_NOTICES.audiencesDeleted(3), '3 audience(s) supprimée(s)'],
      [AUDIENCE_NOTICES.emailsAdded(12), '12 ajoutés'],
    ] as const)
      expect(made).toMatchObject({ text, kind: 'success' });
  });
});
