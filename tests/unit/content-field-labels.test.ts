import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { advertDefaultsSchema, advertInputSchema, articleDefaultsSchema, articleInputSchema, screenSchema } from '@shared/contract/content';
import { contentFieldLabel, CONTENT_FIELD_LABELS } from '@shared/messages/content-fields';
import { describeIssue } from '@shared/messages/validation';
import { validateForSave } from '@shared/rules/advert-screens/save-checks';
import { invalidUrlFields, isContentUrl } from '@shared/rules/content-urls';
import { missingRequiredLabels } from '@shared/rules/publication';

/** Every field path of an object schema, nested objects and arrays of objects included (indices left out). */
function fieldPaths(schema: z.ZodType, prefix: string[] = []): string[][] {
  let inner: z.ZodType = schema;
  for (;;) {
    if (inner instanceof z.ZodDefault || inner instanceof z.ZodNullable || inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
    else if (inner instanceof z.ZodArray) inner = inner.element as z.ZodType;
    else break;
  }
  if (!(inner instanceof z.ZodObject)) return prefix.length ? [prefix] : [];
  return Object.entries(inner.shape as Record<string, z.ZodType>).flatMap(([key, child]) => [
    ...(prefix.length ? [prefix] : []),
    ...fieldPaths(child, [...prefix, key]),
  ]);
}

describe('content field labels', () => {
  const paths = [
    ...fieldPaths(advertDefaultsSchema),
    ...fieldPaths(articleDefaultsSchema),
    ...fieldPaths(advertInputSchema),
    ...fieldPaths(articleInputSchema),
  ];

  it('labels every field of an advert and an article, nested ones included', () => {
    expect(paths.length).toBeGreaterThan(100);
    const unlabelled = [...new Set(paths.map((path) => path.join('.')))].filter((path) => !CONTENT_FIELD_LABELS[path]);
    expect(unlabelled).toEqual([]);
  });

  it('names the field by its label, never its key, in every validation answer of a write', () => {
    for (const path of paths) {
      for (const wrapper of ['advert', 'article']) {
        const described = describeIssue(
          {
            code: 'too_big',
            origin: 'string',
            maximum: 10,
            path: [wrapper, ...path.flatMap((key, index) => (index === 1 && path[0] === 'story' && key === 'screens' ? [key, 0] : [key]))],
          },
          'body',
        );
        expect(described.label, path.join('.')).toBe(CONTENT_FIELD_LABELS[path.join('.')]);
        expect(described.errorMsg).toBe(`${described.label} : 10 caractères au plus`);
      }
    }
    for (const [key] of fieldPaths(screenSchema)) {
      expect(describeIssue({ code: 'custom', message: 'adresse http ou https attendue', path: ['screen', key] }, 'body').label).toBe(
        CONTENT_FIELD_LABELS[`story.screens.${key}`],
      );
    }
    expect(describeIssue({ code: 'too_big', origin: 'string', maximum: 5000, path: ['advert', 'tagline'] }, 'body').errorMsg).toBe(
      'Texte principal : 5000 caractères au plus',
    );
    expect(describeIssue({ code: 'too_small', origin: 'number', minimum: 0, path: ['advert', 'maxViews'] }, 'body').errorMsg).toBe(
      'Vues max par utilisateur : 0 au moins',
    );
    expect(describeIssue({ code: 'too_big', origin: 'string', maximum: 10, path: ['advert', 'story', 'screens', 2, 'link'] }, 'body').errorMsg).toBe(
      "Lien de l'écran : 10 caractères au plus",
    );
    // Other features keep their own labels.
    expect(describeIssue({ code: 'too_big', origin: 'string', maximum: 200, path: ['name'] }, 'body').errorMsg).toBe('Nom : 200 caractères au plus');
  });

  it('labels history fields as the editor does', () => {
    expect(['title', 'story', 'source', 'footNote', 'sharing.sharingLink', 'story.screens.0.link'].map(contentFieldLabel)).toEqual([
      'Titre',
      'Story',
      'Source',
      'Mention légale',
      'Lien de partage',
      "Lien de l'écran",
    ]);
  });

  it('lists the missing properties of a publication by their labels', () => {
    expect(missingRequiredLabels({ type: 'post' })).toEqual(['Logo', 'Images', 'Auteur', 'Source', 'Titre']);
    expect(missingRequiredLabels({ type: 'quiz' })).toEqual(['Logo', 'Auteur', 'Mention légale']);
  });
});

describe('address fields', () => {
  it('takes http(s), storage paths for media and deeplinks for links only', () => {
    for (const kind of ['web', 'media', 'link'] as const) {
      for (const bad of [
        'pas une url',
        'javascript:alert(1)',
        'data:text/html,<b>x</b>',
        'ftp://files.test/a',
        '//evil.test/a.png',
        'https://',
        'http://exa mple.fr',
      ])
        expect(isContentUrl(bad, kind), `${kind} ${bad}`).toBe(false);
      expect(isContentUrl('https://www.labo.example/a?b=1', kind)).toBe(true);
      expect(isContentUrl('', kind)).toBe(true);
    }
    expect(isContentUrl('/cdn/adverts/1/logo.png?d=1', 'media')).toBe(true);
    expect(isContentUrl('/cdn/adverts/1/logo.png', 'link')).toBe(false);
    expect(isContentUrl('app://content/12', 'link')).toBe(true);
    expect(isContentUrl('app://application?url=https%3A%2F%2Fa.fr&openMode=INTERNAL_WEBVIEW', 'link')).toBe(true);
    expect(isContentUrl('app://content/12', 'media')).toBe(false);
    expect(isContentUrl('app://nowhere/12', 'link')).toBe(false);
    expect(isContentUrl('javascript://content/12', 'link')).toBe(false);
  });

  it('the save check refuses them at their fields, in French', () => {
    const item = {
      name: 'Campagne',
      type: 'post',
      source: 'pas une url',
      image: 'javascript:alert(1)',
      logo: 'data:text/html,x',
      images: ['/cdn/a.png'],
    };
    expect(invalidUrlFields(item)).toEqual(['logo', 'image', 'source']);
    const result = validateForSave(item, 'advert');
    expect(result.messages).toEqual([
      'Logo : adresse http ou https attendue',
      'Image : adresse http ou https attendue',
      'Source : adresse http ou https ou deeplink attendue',
    ]);
    expect(result.fields).toEqual(['logo', 'image', 'source']);
    expect(validateForSave({ name: 'S', type: 'story', story: { screens: [{ link: 'javascript:alert(1)' }] } } as never, 'advert').fields).toEqual([
      'story.screens',
    ]);
  });
});
