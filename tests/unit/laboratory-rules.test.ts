import { describe, expect, it } from 'vitest';
import { parseFilter } from '@shared/rules/filter-language';
import { critNumbers, fromBase64, missingPanelColumns, parseTagParams, tagQueryFields, tagStats, toBase64 } from '@shared/rules/laboratory';

describe('laboratory rules', () => {
  it("names the spec's missing columns in order, whatever the header's case and BOM", () => {
    expect(missingPanelColumns(['\uFEFFname', 'Surname', 'GENDER', 'CRIT_01', 'CRIT_02'])).toEqual([]);
    expect(missingPanelColumns(['NAME', 'CRIT_02'])).toEqual(['SURNAME', 'GENDER', 'CRIT_01']);
  });

  it('reads the CRIT_nn columns as numbers and offers them as query fields', () => {
    expect(critNumbers(['NAME', 'crit_03', 'CRIT_01', 'CRIT_1', 'CRITERE'])).toEqual([1, 3]);
    expect(tagQueryFields([1, 3])).toEqual(expect.arrayContaining(['NAME', 'SURNAME', 'GENDER', 'CRIT_01', 'CRIT_03', 'profession', 'specialty']));
    expect(parseFilter("crit_03 = 'x' and Profession = 2", tagQueryFields([1, 3])).ok).toBe(true);
    const unknown = parseFilter("CRIT_02 = 'x'", tagQueryFields([1, 3]));
    expect(unknown.ok).toBe(false);
  });

  it('carries queries and params as base64 of UTF-8 both ways', () => {
    const text = "CRIT_01 = 'Efficacité' and NAME = 'L''Huillier'";
    expect(fromBase64(toBase64(text))).toBe(text);
    expect(toBase64('')).toBe('');
    expect(fromBase64('%%%')).toBeUndefined();
    expect(fromBase64(btoa(String.fromCharCode(0xff, 0xfe)))).toBeUndefined();
  });

  it('accepts params as an object of texts, numbers and lists only', () => {
    expect(parseTagParams('')).toEqual({});
    expect(parseTagParams('{"g": "F", "n": 2, "regions": ["IDF", 3]}')).toEqual({ g: 'F', n: 2, regions: ['IDF', 3] });
    for (const bad of ['[1]', '{"a": {"b": 1}}', '{"a": null}', '{"bad name": 1}', 'not json']) expect(parseTagParams(bad), bad).toBeUndefined();
  });

  it('draws one bar per tag, named by the tag, in the series of its level', () => {
    const stats = tagStats([
      { name: 'Forts prescripteurs', type: 'Efficacité', level: 'CONVINCE', usersCount: 20 },
      { name: ' ', type: 'Efficacité', level: 'CONVINCE', usersCount: 5 },
      { name: 'Franciliennes', type: 'Bon Usage', level: 'SURPRISE', usersCount: 7 },
    ]);
    expect(stats).toEqual({
      labels: ['Forts prescripteurs', 'Tag sans nom', 'Franciliennes'],
      series: [
        [null, null, null],
        [20, 5, null],
        [null, null, 7],
      ],
    });
  });
});
