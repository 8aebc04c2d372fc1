import { describe, expect, it } from 'vitest';
import {
  APP_PARTS,
  buildDeeplink,
  DEEPLINK_TARGETS,
  deeplinkErrors,
  emptyDeeplinkForm,
  isAppSearchTerm,
  isDeeplinkId,
  isDeeplinkUrl,
  isDeeplinkValid,
} from '@shared/rules/deeplink';

describe('deeplink generator (§2.7)', () => {
  it('has the targets and app parts of the spec', () => {
    for (const target of ['global-search', 'story', 'ad', 'content', 'article', 'document-open', 'application'])
      expect(DEEPLINK_TARGETS).toContain(target);
    expect(APP_PARTS).toEqual([
      'drive',
      'timeline',
      'notifications',
      'applications',
      'medics',
      'tasks',
      'universe',
      'db-download',
      'expert',
      'user-profile',
      'viewer',
    ]);
  });

  it('opens applications in INTERNAL_WEBVIEW with encoding on by default', () => {
    const form = emptyDeeplinkForm();
    expect(form.openMode).toBe('INTERNAL_WEBVIEW');
    expect(form.encode).toBe(true);
  });

  it('accepts letters, digits, - and _ in ids only', () => {
    expect(isDeeplinkId('abc-DEF_123')).toBe(true);
    for (const bad of ['', 'a b', 'a/b', 'é', 'a?b']) expect(isDeeplinkId(bad)).toBe(false);
    const form = { ...emptyDeeplinkForm(), target: 'story' as const, id: 'a b' };
    expect(deeplinkErrors(form)).toEqual({ id: "Lettres, chiffres, '-' et '_' uniquement" });
    expect(isDeeplinkValid(form)).toBe(false);
    expect(buildDeeplink(form)).toBeNull();
  });

  it('checks URLs by pattern', () => {
    expect(isDeeplinkUrl('https://www.exemple.fr/page?x=1')).toBe(true);
    expect(isDeeplinkUrl('http://localhost:8080/')).toBe(true);
    for (const bad of ['', 'exemple.fr', 'ftp://exemple.fr', 'https://exemple', 'https://a b.fr']) expect(isDeeplinkUrl(bad)).toBe(false);
    expect(deeplinkErrors({ ...emptyDeeplinkForm(), url: 'pas une url' })).toEqual({ url: "L'url saise est invalide" });
  });

  it('builds links for items, app parts, search and applications', () => {
    expect(buildDeeplink({ ...emptyDeeplinkForm('medapp'), target: 'story', id: '42' })).toEqual({
      url: 'medapp://story/42',
      firstParams: '/42',
      secondParams: '',
    });
    expect(buildDeeplink({ ...emptyDeeplinkForm(), target: 'timeline', id: '' })?.url).toBe('app://timeline');
    expect(buildDeeplink({ ...emptyDeeplinkForm(), target: 'drive', id: 'mes-docs' })?.url).toBe('app://drive/mes-docs');
    expect(buildDeeplink({ ...emptyDeeplinkForm(), target: 'global-search', term: 'insuline rapide' })?.url).toBe(
      'app://global-search?term=insuline%20rapide',
    );
    const url = 'https://exemple.fr/a?b=1&c=2';
    expect(buildDeeplink({ ...emptyDeeplinkForm(), url })?.url).toBe(`app://application?url=${encodeURIComponent(url)}&openMode=INTERNAL_WEBVIEW`);
    expect(buildDeeplink({ ...emptyDeeplinkForm(), url, encode: false, openMode: 'EXTERNAL_BROWSER' })).toEqual({
      url: `app://application?url=${url}&openMode=EXTERNAL_BROWSER`,
      firstParams: '',
      secondParams: `?url=${url}&openMode=EXTERNAL_BROWSER`,
    });
  });

  it('searches apps from 3 characters', () => {
    expect(isAppSearchTerm('ab')).toBe(false);
    expect(isAppSearchTerm(' abc ')).toBe(true);
  });
});
