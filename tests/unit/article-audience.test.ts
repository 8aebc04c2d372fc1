import { describe, expect, it } from 'vitest';
import { validateForSave } from '@shared/rules/advert-screens/save-checks';
import { ARTICLE_CRITERION_LABELS, ARTICLE_CRITERION_TITLES, criteriaByLabel, hasAreaCriterion, sameCriteria } from '@shared/rules/article-audience';
import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';

const node = (id: number, label: string) => ({ id, label, name: `${label} ${id}` });

describe("the article's own audience criteria (adverts-articles.md §2.5)", () => {
  it('has the seven labels of the spec, OrGroup shown as Appetence', () => {
    expect(ARTICLE_CRITERION_LABELS).toEqual(['Area', 'Country', 'Role', 'Profession', 'Specialty', 'Title', 'OrGroup']);
    expect(ARTICLE_CRITERION_TITLES.OrGroup).toBe('Appetence');
    expect(ARTICLE_CRITERION_TITLES.Specialty).toBe('Specialty');
  });

  it('groups node ids per label, sorted, without repeats, leaving out other labels', () => {
    expect(criteriaByLabel([node(9, 'Area'), node(3, 'Area'), node(9, 'Area'), node(5, 'OrGroup'), node(7, 'Keyword')])).toEqual({
      Area: [3, 9],
      OrGroup: [5],
    });
    expect(criteriaByLabel([])).toEqual({});
  });

  it('compares two sets whatever their order', () => {
    expect(sameCriteria([node(1, 'Area'), node(2, 'Title')], [node(2, 'Title'), node(1, 'Area')])).toBe(true);
    expect(sameCriteria([node(1, 'Area')], [node(1, 'Area'), node(2, 'Title')])).toBe(false);
  });

  it('requires an Area criterion to save an article holding its criteria', () => {
    expect(hasAreaCriterion([node(2, 'Title')])).toBe(false);
    expect(validateForSave({ name: 'Article', _$criteria: [node(2, 'Title')] }, 'article').messages).toEqual([M.articleAreaRequired]);
    expect(validateForSave({ name: 'Article', _$criteria: [node(1, 'Area')] }, 'article').messages).toEqual([]);
    // Without criteria loaded, the attached audience's area counts (the former reading).
    expect(validateForSave({ name: 'Article', _$audiences: [{ label: 'french' }] }, 'article').messages).toEqual([]);
  });
});
