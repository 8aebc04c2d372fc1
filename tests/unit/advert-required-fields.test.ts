import { describe, expect, it } from 'vitest';
import { ADVERT_TYPES } from '@shared/rules/advert-screens/content-types';
import { advertEditorFields, advertSections } from '@shared/rules/advert-screens/editor-sections';
import { validateForSave } from '@shared/rules/advert-screens/save-checks';
import { missingRequiredProperties, REQUIRED_WHEN_PUBLISHED, requiredPropertiesOf } from '@shared/rules/publication';

/**
 * The required properties of a published advert (adverts-articles.md §5) are read where the editor of each type
 * writes them (§2.2 sections): a property the editor of its type has no input for could never be filled, and the
 * advert never published (docs/content.md: a story's logo was read at the top level, which only 'Visuels et
 * descriptifs', hidden for stories, sets).
 */
describe('required properties and the editor of each advert type', () => {
  // The roles that see the fewest sections (no Tracking, no voters count): what every writer of adverts has.
  const writer = ['CSM'];

  it('has a list for the types the spec names and the banner (its image), none for tool', () => {
    expect(Object.keys(REQUIRED_WHEN_PUBLISHED).sort()).toEqual(['banner', 'notification', 'post', 'quiz', 'search', 'story', 'video']);
    expect(Object.fromEntries(ADVERT_TYPES.map((type) => [type, requiredPropertiesOf(type).map((property) => property.name)]))).toEqual({
      post: ['logo', 'images', 'author', 'source', 'title'],
      video: ['logo', 'author', 'video', 'source', 'title'],
      quiz: ['logo', 'author', 'footNote'],
      story: ['logo'],
      notification: ['title', 'source'],
      search: ['title', 'source'],
      tool: [],
      banner: ['images'],
    });
  });

  for (const type of ADVERT_TYPES) {
    it(`${type}: each required property is a field its editor has an input for`, () => {
      const fields = advertEditorFields(type, writer);
      for (const property of requiredPropertiesOf(type)) {
        expect(fields, `${type}.${property.name} written at ${property.paths[0]} (sections ${advertSections(type, writer).join(', ')})`).toContain(
          property.paths[0],
        );
      }
    });

    it(`${type}: filling the editor's field of each required property satisfies the rule`, () => {
      const filled: Record<string, unknown> = { type };
      for (const property of requiredPropertiesOf(type)) {
        const [head, ...rest] = property.paths[0].split('.');
        const value = property.name === 'images' ? ['https://cdn.test/visuel.png'] : `https://cdn.test/${property.name}`;
        filled[head] = rest.length ? { ...(filled[head] as object), [rest.join('.')]: value } : value;
      }
      expect(missingRequiredProperties(filled)).toEqual([]);
      expect(validateForSave({ name: 'Publiée', published: true, sonataId: 'S1', ...filled }, 'advert').messages).toEqual([]);
    });
  }

  it("a story's logo is the story logo upload's field, as 'Visuels et descriptifs' is hidden for stories", () => {
    expect(advertEditorFields('story', writer)).not.toContain('logo');
    expect(requiredPropertiesOf('story')[0].paths[0]).toBe('story.logo');
    expect(missingRequiredProperties({ type: 'story', logo: null, story: { logo: null } })).toEqual(['logo']);
  });
});
