import { describe, expect, it } from 'vitest';
import { ADVERT_SCREEN_MESSAGES as M, ADVERT_SCREEN_NOTICES as N } from '@shared/messages/advert-screens';
import { formatDate } from '@shared/rules/dates';
import { isSearchableAudienceTerm } from '@shared/rules/advert-screens/audience-search';
import { parseAdvertCsvRow, parseCsvBoolean, parseCsvDate, parseCsvInteger } from '@shared/rules/advert-screens/csv-import';
import {
  advertSections,
  articleSections,
  canOpenAudience,
  canSearchAudiences,
  isAdvertReadOnly,
  isConvertible,
  parseEditorId,
} from '@shared/rules/advert-screens/editor-sections';
import { notificationAutoStop } from '@shared/rules/advert-screens/notification-stop';
import { newQuestion, nextQuestionId, withSource } from '@shared/rules/advert-screens/quiz';
import { hasNonExpertAudience, isHexColour, publicationProblems, validateForSave } from '@shared/rules/advert-screens/save-checks';
import { campaignStatus, canEndCampaign, canStartCampaign, scheduleLabels, statusIcon } from '@shared/rules/advert-screens/status';
import { clampWeight, weightDisplay } from '@shared/rules/advert-screens/weight';

const now = 1_750_000_000;
const day = 86_400;
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

describe('status icon (§2.1)', () => {
  it('has the five states of the spec', () => {
    expect(statusIcon({ published: true, autoStopAt: now + day }, now)).toMatchObject({ color: 'green', clock: true });
    expect(statusIcon({ published: false, autoStartAt: now + day }, now)).toMatchObject({ color: 'orange', clock: true });
    expect(statusIcon({ published: false, autoStartAt: now + day, autoStopAt: now + 2 * day }, now)).toMatchObject({ color: 'orange', clock: true });
    expect(statusIcon({ published: false, autoStartAt: now - day, autoStopAt: now + day }, now)).toMatchObject({ color: 'red', clock: false });
    expect(statusIcon({ published: true }, now)).toMatchObject({ color: 'green', clock: false });
    expect(statusIcon({ published: true, autoStartAt: now - day }, now)).toMatchObject({ color: 'green', clock: false });
    expect(statusIcon({ published: false }, now)).toMatchObject({ color: 'grey', clock: false });
    expect(statusIcon({ published: false, autoStartAt: null, autoStopAt: null }, now).kind).toBe('unpublished');
  });

  it('names five distinct kinds', () => {
    const kinds = new Set(
      [
        { published: true, autoStopAt: now },
        { published: false, autoStartAt: now + 1 },
        { published: false, autoStartAt: now - 1, autoStopAt: now },
        { published: true },
        { published: false },
      ].map((item) => statusIcon(item, now).kind),
    );
    expect(kinds.size).toBe(5);
  });
});

describe('editor labels and campaign (§2.2)', () => {
  it('labels Publié, Prog: and Fin: with DD/MM/yyyy dates', () => {
    const start = seconds(new Date(2026, 0, 5, 9, 30));
    const stop = seconds(new Date(2026, 1, 28, 18, 0));
    expect(scheduleLabels({ published: true, autoStartAt: start, autoStopAt: stop })).toEqual([
      'Publié',
      'Prog: 05/01/2026 09:30',
      'Fin: 28/02/2026 18:00',
    ]);
    expect(scheduleLabels({ published: false })).toEqual([]);
    expect(formatDate(start)).toBe('05/01/2026');
  });

  it('says offline, online or publié', () => {
    expect(campaignStatus({ published: false, publishedAt: now })).toBe('offline');
    expect(campaignStatus({ published: true })).toBe('online');
    expect(campaignStatus({ published: true, publishedAt: now, unpublishedAt: now + 1 })).toBe('online');
    expect(campaignStatus({ published: true, publishedAt: now })).toBe('publié');
  });

  it('offers start only without publishedAt, end only while running', () => {
    expect(canStartCampaign({ published: false })).toBe(true);
    expect(canStartCampaign({ published: true, publishedAt: now })).toBe(false);
    expect(canEndCampaign({ published: true, publishedAt: now })).toBe(true);
    expect(canEndCampaign({ published: true, publishedAt: now, unpublishedAt: now })).toBe(false);
    expect(canEndCampaign({ published: true })).toBe(false);
  });

  it('shows the weight × 10 percent, within 1 to 10', () => {
    expect(weightDisplay(5)).toBe('50 %');
    expect(weightDisplay(10)).toBe('100 %');
    expect(weightDisplay(0)).toBe('10 %');
    expect(weightDisplay(42)).toBe('100 %');
    expect(weightDisplay(null)).toBe('50 %');
    expect(clampWeight(3.4)).toBe(3);
  });

  it('reads the editor id: new, project-{name}, existing', () => {
    expect(parseEditorId('new')).toEqual({ kind: 'new', name: '' });
    expect(parseEditorId('project-Campagne Sanofi')).toEqual({ kind: 'new', name: 'Campagne Sanofi' });
    expect(parseEditorId('42')).toEqual({ kind: 'existing', id: 42 });
    expect(parseEditorId('0')).toEqual({ kind: 'invalid' });
    expect(parseEditorId('abc')).toEqual({ kind: 'invalid' });
  });

  it('converts post, video, quiz and story only', () => {
    expect(['post', 'video', 'quiz', 'story'].every(isConvertible)).toBe(true);
    expect(['search', 'tool', 'notification', 'banner', null].some(isConvertible)).toBe(false);
  });
});

describe('sections by type and role (§2.2, §2.5)', () => {
  it('hides visuals for story and banner; tracking only for ADMIN and not story', () => {
    expect(advertSections('story', ['ADMIN'])).toEqual(['general', 'audiences', 'cta', 'scheduling', 'funnels']);
    expect(advertSections('banner', ['CSM'])).toEqual(['general', 'audiences', 'scheduling', 'funnels']);
    expect(advertSections('post', ['CSM'])).toEqual(['general', 'audiences', 'visuals', 'sharing', 'scheduling', 'funnels']);
    expect(advertSections('post', ['ADMIN'])).toContain('tracking');
    expect(advertSections('quiz', ['CSM'])).toContain('quiz');
    expect(advertSections('tool', ['CSM'])).toEqual(['general', 'audiences', 'visuals']);
    expect(advertSections('notification', ['CSM'])).not.toContain('sharing');
  });

  it('article sections: sharing not for story or notification, visuals not for story', () => {
    expect(articleSections('story')).toEqual(['general', 'audiences', 'cta', 'scheduling']);
    expect(articleSections('notification')).toEqual(['general', 'audiences', 'visuals', 'scheduling']);
    expect(articleSections('quiz')).toEqual(['general', 'audiences', 'visuals', 'quiz', 'sharing', 'scheduling']);
  });

  it('gives the audience search to CSM, CSM_LEAD, ADMIN and the audience link to CSM_LEAD, ADMIN', () => {
    expect(canSearchAudiences(['CSM'])).toBe(true);
    expect(canSearchAudiences(['SALES'])).toBe(false);
    expect(canSearchAudiences(['CONTENT_CREATOR'])).toBe(false);
    expect(canOpenAudience(['CSM'])).toBe(false);
    expect(canOpenAudience(['CSM_LEAD'])).toBe(true);
    expect(canOpenAudience(['ADMIN'])).toBe(true);
    expect(isAdvertReadOnly(['SALES'])).toBe(true);
    expect(isAdvertReadOnly(['SALES', 'CSM'])).toBe(true);
    expect(isAdvertReadOnly(['SALES', 'ADMIN'])).toBe(false);
    expect(isAdvertReadOnly(['CSM'])).toBe(false);
  });
});

describe('save-time validation (§5)', () => {
  const valid = { name: 'Campagne', type: 'post', published: false };

  it('accepts a valid unpublished advert', () => {
    expect(validateForSave(valid, 'advert')).toEqual({ messages: [], fields: [], errors: {} });
  });

  it('gives each message of the spec with its field', () => {
    expect(validateForSave({ ...valid, name: '  ' }, 'advert')).toEqual({
      messages: ["Le nom de l'advert est requis"],
      fields: ['name'],
      errors: { name: "Le nom de l'advert est requis" },
    });
    expect(validateForSave({ ...valid, name: '' }, 'article').messages).toContain('Le nom du contenu est requis');
    expect(validateForSave({ ...valid, type: '' }, 'advert').messages).toEqual(["Le type de l'advert est requis"]);
    expect(validateForSave({ ...valid, type: 'tool' }, 'advert').messages).toEqual(['Sonata ID is required']);
    expect(validateForSave({ ...valid, type: 'tool', sonataId: 'S-1' }, 'advert').messages).toEqual([]);
    expect(validateForSave({ ...valid, autoStopAt: now }, 'advert').messages).toEqual(['La date de publication est requise']);
    expect(validateForSave({ ...valid, autoStartAt: now, autoPublishOptions: { emails: ['a@b.fr'] } }, 'advert').messages).toEqual([
      'La date de dé-publication est requise',
    ]);
    expect(validateForSave({ ...valid, autoStartAt: now, autoStopAt: now + day }, 'advert')).toEqual({
      messages: ['Au moins un email doit être renseigné pour la publication automatique'],
      fields: ['autoPublishOptions.emails'],
      errors: { 'autoPublishOptions.emails': 'Au moins un email doit être renseigné pour la publication automatique' },
    });
  });

  it("refuses 'Vues max par utilisateur' emptied, not whole, negative or too large, at its field", () => {
    const message = 'Vues max par utilisateur : nombre entier de 0 à 1000000 attendu';
    for (const maxViews of [null, 2.5, -1, 1_000_001])
      expect(validateForSave({ ...valid, maxViews }, 'advert'), String(maxViews)).toMatchObject({
        messages: [message],
        errors: { maxViews: message },
      });
    for (const maxViews of [undefined, 0, 5, 1_000_000]) expect(validateForSave({ ...valid, maxViews }, 'advert').messages).toEqual([]);
  });

  it("refuses a story's CTA colour that is no colour ('red'), at that colour", () => {
    const cta = { textColor: 'red', backgroundColor: '#F0F2F5' };
    expect(validateForSave({ ...valid, type: 'story', callToAction: cta }, 'advert')).toMatchObject({
      messages: ["Il y a une erreur dans le format d'une couleur de story"],
      errors: { 'callToAction.textColor': "Il y a une erreur dans le format d'une couleur de story" },
    });
    expect(validateForSave({ ...valid, type: 'story', callToAction: { ...cta, textColor: '#FFF' } }, 'advert').messages).toEqual([]);
  });

  it('checks story colours as #rgb or #rrggbb', () => {
    expect(isHexColour('#fff')).toBe(true);
    expect(isHexColour('#C41723')).toBe(true);
    expect(isHexColour('C41723')).toBe(false);
    expect(isHexColour('#C4172')).toBe(false);
    const story = (colour: string) => ({ ...valid, type: 'story', story: { screens: [{ backgroundColor: '#000' }, { titleColor: colour }] } });
    expect(validateForSave(story('#abc'), 'advert').messages).toEqual([]);
    expect(validateForSave(story('red'), 'advert').messages).toEqual(["Il y a une erreur dans le format d'une couleur de story"]);
  });

  it('requires an audience with its Area on articles', () => {
    expect(validateForSave({ ...valid, _$audiences: [] }, 'article').messages).toEqual(["L'Area de l'audience est requise"]);
    expect(validateForSave({ ...valid, _$audiences: [{ label: '' }] }, 'article').messages).toEqual(["L'Area de l'audience est requise"]);
    expect(validateForSave({ ...valid, _$audiences: [{ label: 'french' }] }, 'article').messages).toEqual([]);
  });

  it('lists the properties a published advert of each type needs (the publication rule), highlighting their fields', () => {
    const messages = (item: Parameters<typeof validateForSave>[0]) => validateForSave({ ...valid, published: true, ...item }, 'advert').messages;
    expect(messages({ type: 'post' })).toEqual(['Les propriétés Logo, Images, Auteur, Source, Titre sont requises']);
    expect(messages({ type: 'video', logo: '/cdn/l.png', author: 'a', source: 'app://content/1', title: 't' })).toEqual([
      'Les propriétés Vidéo sont requises',
    ]);
    expect(messages({ type: 'quiz' })).toEqual(['Les propriétés Logo, Auteur, Mention légale sont requises']);
    expect(messages({ type: 'notification' })).toEqual(['Les propriétés Titre, Source sont requises']);
    expect(messages({ type: 'search' })).toEqual(['Les propriétés Titre, Source sont requises']);
    expect(messages({ type: 'post', logo: '/cdn/l.png', author: 'a', source: 'app://content/1', title: 't', images: [''] })).toEqual([
      'Les propriétés Images sont requises',
    ]);
    expect(validateForSave({ ...valid, published: false, type: 'post' }, 'advert').messages).toEqual([]);
    // A story's logo is its story's own (the story logo upload): the field highlighted is that one.
    const result = validateForSave({ ...valid, published: true, type: 'story' }, 'advert');
    expect(result.messages).toEqual(['Les propriétés Logo sont requises']);
    expect(result.fields).toEqual(['story.logo']);
    expect(messages({ type: 'story', story: { logo: '/cdn/assets/adverts/1/story/logo.png', screens: [] } })).toEqual([]);
    // Articles: the spec gives no per-type list.
    expect(validateForSave({ ...valid, published: true, _$audiences: [{ label: 'french' }] }, 'article').messages).toEqual([]);
  });

  it('joins every message with " / " in a 3 s warning', () => {
    const result = validateForSave({ name: '', type: '', published: false, autoStopAt: now }, 'advert');
    expect(result.messages).toHaveLength(3);
    const toast = N.validation(result.messages);
    expect(toast).toEqual({
      text: "Le nom de l'advert est requis / La date de publication est requise / Le type de l'advert est requis",
      kind: 'warning',
      durationMs: 3000,
    });
  });

  it('names the publication problems', () => {
    expect(publicationProblems({ type: 'video', _$audiences: [{ roles: ['ROLE_EXPERT'] }] })).toEqual([
      'Vous devez ajouter une vidéo avant de publier la publicité',
    ]);
    expect(publicationProblems({ type: 'post', _$audiences: [] })).toEqual(['Aucune audience associée à la publicité']);
    expect(publicationProblems({ type: 'post', _$audiences: [{ roles: ['ROLE_EXPERT'] }, { roles: [] }] })).toEqual([
      'Audience non expert associée à la publicité',
    ]);
    expect(publicationProblems({ type: 'post', _$audiences: [{ roles: ['ROLE_EXPERT'] }] })).toEqual([]);
    expect(hasNonExpertAudience([{ roles: null }])).toBe(true);
    expect(hasNonExpertAudience([])).toBe(false);
  });
});

describe('CSV values (§5)', () => {
  it('reads booleans true/yes/1 and false/no/0', () => {
    for (const value of ['true', 'YES', ' 1 ', 'True']) expect(parseCsvBoolean(value)).toBe(true);
    for (const value of ['false', 'No', '0']) expect(parseCsvBoolean(value)).toBe(false);
    for (const value of ['', 'oui', '2', undefined]) expect(parseCsvBoolean(value)).toBeNull();
  });

  it('reads integers', () => {
    expect(parseCsvInteger('7')).toBe(7);
    expect(parseCsvInteger(' -3 ')).toBe(-3);
    expect(parseCsvInteger('7.5')).toBeNull();
    expect(parseCsvInteger('abc')).toBeNull();
    expect(parseCsvInteger('')).toBeNull();
  });

  it('reads dates as epoch seconds or date strings; invalid gives null', () => {
    expect(parseCsvDate('1750000000')).toBe(1_750_000_000);
    expect(parseCsvDate('2026-01-05T10:00:00Z')).toBe(seconds(new Date(Date.UTC(2026, 0, 5, 10))));
    expect(parseCsvDate('05/01/2026')).toBe(seconds(new Date(2026, 0, 5)));
    expect(parseCsvDate('05/01/2026 09:30')).toBe(seconds(new Date(2026, 0, 5, 9, 30)));
    expect(parseCsvDate('31/02/2026')).toBeNull();
    expect(parseCsvDate('not a date')).toBeNull();
    expect(parseCsvDate('')).toBeNull();
  });

  it('turns a row into advert fields, with an error per bad value', () => {
    expect(parseAdvertCsvRow({ name: ' Campagne ', type: 'post', weight: '8', published: 'yes', autoStartAt: '1750000000', other: 'x' })).toEqual({
      value: { name: 'Campagne', type: 'post', weight: 8, published: true, autoStartAt: 1_750_000_000 },
      errors: [],
    });
    const { errors } = parseAdvertCsvRow({ name: 'x', type: 'poster', weight: 'lourd', published: 'peut-être', autoStopAt: 'demain' });
    expect(errors).toHaveLength(4);
  });
});

describe('audience search, auto-stop, quiz (§4, §5)', () => {
  it('searches from 2 characters and ignores the spec’s terms', () => {
    expect(isSearchableAudienceTerm('ca')).toBe(true);
    expect(isSearchableAudienceTerm('c')).toBe(false);
    expect(isSearchableAudienceTerm('   ')).toBe(false);
    expect(isSearchableAudienceTerm(':cardio')).toBe(false);
    expect(isSearchableAudienceTerm('cardio, onco')).toBe(false);
    expect(isSearchableAudienceTerm("l'audience")).toBe(false);
    expect(isSearchableAudienceTerm('cardio (fr)')).toBe(false);
    expect(isSearchableAudienceTerm('cardio)')).toBe(false);
  });

  it('stops a notification 7 days after its start (advert) or a month after (article)', () => {
    const start = seconds(new Date(2026, 0, 31, 8, 0));
    expect(notificationAutoStop(start, 'advert')).toBe(start + 7 * day);
    expect(notificationAutoStop(start, 'article')).toBe(seconds(new Date(2026, 1, 28, 8, 0)));
    const mid = seconds(new Date(2026, 4, 15, 12, 0));
    expect(notificationAutoStop(mid, 'article')).toBe(seconds(new Date(2026, 5, 15, 12, 0)));
    const december = seconds(new Date(2026, 11, 10));
    expect(notificationAutoStop(december, 'article')).toBe(seconds(new Date(2027, 0, 10)));
  });

  it('numbers a new question count + 1; the source is trimmed into the quiz link', () => {
    expect(nextQuestionId([])).toBe(1);
    const questions = [newQuestion([])];
    expect(newQuestion(questions)).toEqual({ id: 2, answer: '', correct: false, percentage: 0 });
    expect(withSource({ source: '', quiz: { link: '' } }, ' https://a.fr ')).toEqual({ source: 'https://a.fr', quiz: { link: 'https://a.fr' } });
    expect(withSource({ source: '' }, ' https://a.fr')).toEqual({ source: 'https://a.fr' });
  });
});

describe('texts of the spec (letter for letter)', () => {
  it('keeps the spelling staff know', () => {
    expect(M.advertDeleted).toBe('La publicité a été suppirmée');
    expect(M.adBlocker).toBe('Add block est activé. La palteforme pourrait ne pas fonctionner correctement.');
    expect(M.deeplinkUrlInvalid).toBe("L'url saise est invalide");
    expect(M.notMigrated('Campagne')).toBe('Campagne has not been migrated yet.');
    expect(N.noDataToExport).toEqual({ text: 'No data to export', kind: 'warning', durationMs: 2000 });
    expect(N.userNotAllowed).toEqual({ text: 'User not allowed', kind: 'error', durationMs: 3000 });
  });
});

describe('URL pre-fill failure (§8)', () => {
  it('says the prefix once, whether the server already wrote it or not', () => {
    const prefix = "Impossible de récupérer les données depuis l'URL : ";
    expect(M.urlPrefillFailed(`${prefix}la page est trop longue à analyser`)).toBe(`${prefix}la page est trop longue à analyser`);
    expect(M.urlPrefillFailed('Le serveur ne répond pas')).toBe(`${prefix}Le serveur ne répond pas`);
  });
});
