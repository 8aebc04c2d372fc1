import { describe, expect, it } from 'vitest';
import { advertDefaultsSchema, articleDefaultsSchema } from '@shared/contract/adverts';
import { ROLES, access, isAllowed, type Role } from '@shared/roles';
import {
  DEFAULT_FOOTNOTES,
  applyQuizRules,
  checkTenDigitEpoch,
  footnoteLanguage,
  inferLegacyType,
  isLegacyLayout,
  isValidColor,
  isVideoScreen,
  mapLegacyLayout,
  mapMedia,
  ModelError,
  nextQuestionId,
  openInChoices,
  setUpdatedAt,
  validateLabelFor,
  withCacheBuster,
  withoutCacheBuster,
} from '@shared/rules/advert-model';
import {
  advertPublicationProblems,
  articlePublicationProblems,
  missingRequiredProperties,
  requiredPropertiesMessage,
} from '@shared/rules/publication';

describe('defaults (spec §3)', () => {
  it('a new advert', () => {
    expect(advertDefaultsSchema.parse({})).toMatchObject({
      weight: 5,
      maxViews: 5,
      showReadMore: true,
      subtitle: 'Partenariat sponsorisé',
      buttonLabel: 'Découvrir',
      footNote: DEFAULT_FOOTNOTES.fr,
      published: false,
      archived: false,
      isFree: false,
      autoPublishOptions: { activated: false, emails: [] },
      sharing: { enableLikes: true, enableBookmarking: true, enableSharing: true, sharingLink: '', sharingMessage: '' },
      search: { position: null, tabs: [], association: null },
      tool: { sponsored: false, sponsoredFromDate: null, sponsoredToDate: null },
    });
  });

  it('a new article: type post, tag Tag #66627E', () => {
    expect(articleDefaultsSchema.parse({})).toMatchObject({
      type: 'post',
      name: '',
      tag: { text: 'Tag', tagColor: '#66627E' },
      isPinned: false,
      published: false,
    });
  });

  it('quiz and screen defaults', () => {
    const advert = advertDefaultsSchema.parse({ quiz: {}, story: { screens: [{ id: 1, uuid: 'u' }] } });
    expect(advert.quiz).toMatchObject({ answerButtonLabel: 'En savoir plus', validateButtonLabel: 'Valider', questions: [] });
    expect(advert.story!.screens[0]).toMatchObject({ footerButtonText: 'VALIDER', backgroundColor: '#C41723' });
  });
});

describe('footnote language and the quiz validate label', () => {
  it('follows the four default footnotes', () => {
    expect(validateLabelFor(DEFAULT_FOOTNOTES.fr)).toBe('Valider');
    expect(validateLabelFor(DEFAULT_FOOTNOTES.en)).toBe('Validate');
    expect(validateLabelFor(DEFAULT_FOOTNOTES.es)).toBe('Validar');
    expect(validateLabelFor(DEFAULT_FOOTNOTES.it)).toBe('Validare');
    expect(validateLabelFor('')).toBe('Valider');
    expect(footnoteLanguage('Your data is never shared')).toBe('en');
  });

  it('keeps a custom label, and copies a changed source into the quiz link', () => {
    const quiz = { validateButtonLabel: 'Valider', link: 'https://a.test' };
    expect(applyQuizRules(null, { footNote: DEFAULT_FOOTNOTES.it, source: 'x', quiz }).quiz!.validateButtonLabel).toBe('Validare');
    expect(applyQuizRules(null, { footNote: DEFAULT_FOOTNOTES.it, quiz: { ...quiz, validateButtonLabel: 'Go !' } }).quiz!.validateButtonLabel).toBe(
      'Go !',
    );
    const previous = { source: 'https://a.test', quiz };
    expect(applyQuizRules(previous, { source: 'https://b.test', quiz }).quiz!.link).toBe('https://b.test');
    // A link changed by hand in the same save wins.
    expect(applyQuizRules(previous, { source: 'https://b.test', quiz: { ...quiz, link: 'https://c.test' } }).quiz!.link).toBe('https://c.test');
    expect(applyQuizRules(null, { source: 'x', quiz: null }).quiz).toBeNull();
  });

  it('question ids, video screens, colours, openIn choices', () => {
    expect(nextQuestionId([{}, {}])).toBe(3);
    expect(isVideoScreen('https://cdn/a.MP4?d=3')).toBe(true);
    expect(isVideoScreen('https://cdn/a.webm')).toBe(true);
    expect(isVideoScreen('https://cdn/a.png')).toBe(false);
    expect(['#fff', '#C41723'].every(isValidColor)).toBe(true);
    expect(['fff', '#ffff', '#gggggg', '', null].some(isValidColor)).toBe(false);
    expect(openInChoices('search')).toEqual(['LINK', 'READER', 'VIDEO']);
    expect(openInChoices('quiz')).toEqual(['EXTERNAL_BROWSER', 'INTERNAL_BROWSER', 'INTERNAL_WEBVIEW']);
    expect(openInChoices('story')).toEqual([]);
  });
});

describe('media cache busting', () => {
  it('adds or replaces the d parameter, keeping the others and the fragment', () => {
    expect(withCacheBuster('https://cdn.test/a.png', 1700000000)).toBe('https://cdn.test/a.png?d=1700000000');
    expect(withCacheBuster('https://cdn.test/a.png?w=3&d=1#x', 2)).toBe('https://cdn.test/a.png?w=3&d=2#x');
    expect(withoutCacheBuster('https://cdn.test/a.png?w=3&d=2#x')).toBe('https://cdn.test/a.png?w=3#x');
    expect(withoutCacheBuster('https://cdn.test/a.png?d=2')).toBe('https://cdn.test/a.png');
    expect(withCacheBuster('', 2)).toBe('');
  });

  it('applies to every media field, story logo and screens included', () => {
    const model = {
      logo: 'l.png',
      image: null,
      images: ['a.png'],
      video: 'v.mp4',
      title: 't.png',
      story: { logo: 's.png', screens: [{ logo: 'sl.png', illustration: 'i.mp4', title: 'x' }] },
    };
    expect(mapMedia(model, (url) => withCacheBuster(url, 9))).toEqual({
      logo: 'l.png?d=9',
      image: null,
      images: ['a.png?d=9'],
      video: 'v.mp4?d=9',
      title: 't.png',
      story: { logo: 's.png?d=9', screens: [{ logo: 'sl.png?d=9', illustration: 'i.mp4?d=9', title: 'x' }] },
    });
  });
});

describe('setUpdatedAt and hydration', () => {
  it('needs a 10-digit epoch', () => {
    expect(setUpdatedAt({ updatedAt: null }, 1767225600)).toEqual({ updatedAt: 1767225600 });
    for (const bad of [1767225600000, 176722560, '1767225600', 1767225600.5, null]) {
      expect(() => checkTenDigitEpoch(bad), String(bad)).toThrow(ModelError);
    }
  });

  it('hydrating from an empty object is an error', () => {
    expect(() => mapLegacyLayout({})).toThrow(ModelError);
    expect(() => mapLegacyLayout(null)).toThrow(ModelError);
    expect(() => mapLegacyLayout([])).toThrow(ModelError);
  });

  it('detects the old nested-document layout and lifts its fields', () => {
    const legacy = {
      id: 4,
      type: 'timeline',
      document: { title: 'Ancien', author: 'Labo', image: 'i.png', logo: 'l.png', video: 'v.mp4' },
      post: { video: 'v.mp4' },
    };
    expect(isLegacyLayout(legacy)).toBe(true);
    expect(isLegacyLayout({ name: 'x' })).toBe(false);
    expect(mapLegacyLayout(legacy)).toEqual({
      id: 4,
      type: 'video',
      title: 'Ancien',
      author: 'Labo',
      image: 'i.png',
      images: ['i.png'],
      logo: 'l.png',
      video: 'v.mp4',
      name: 'Ancien',
      model: 'latest',
    });
  });

  it('infers the type of old data (spec §3)', () => {
    expect(inferLegacyType({ type: 'timeline', post: { video: 'v.mp4' } })).toBe('video');
    expect(inferLegacyType({ type: 'timeline', isQuiz: true })).toBe('quiz');
    expect(inferLegacyType({ type: 'search' })).toBe('search');
    expect(inferLegacyType({ category: 'STORY' })).toBe('story');
    expect(inferLegacyType({ document: { category: 'STORY' } })).toBe('story');
    expect(inferLegacyType({ type: 'timeline' })).toBe('post');
    expect(inferLegacyType({})).toBe('post');
    expect(mapLegacyLayout({ name: 'Sans type' })).toEqual({ name: 'Sans type', type: 'post', model: 'latest' });
    expect(mapLegacyLayout({ name: 'Typé', type: 'tool' })).toEqual({ name: 'Typé', type: 'tool', model: 'latest' });
  });
});

describe('publication checks (spec §5)', () => {
  const expert = { roles: ['ROLE_EXPERT'] };
  it('required properties per type, in the spec order', () => {
    expect(missingRequiredProperties({ type: 'post', logo: '/cdn/l.png', images: [''], author: ' ', source: 'https://s.test', title: 't' })).toEqual([
      'images',
      'author',
    ]);
    // An address field holding no address does not count as filled.
    expect(missingRequiredProperties({ type: 'notification', title: 't', source: 'pas une url' })).toEqual(['source']);
    expect(missingRequiredProperties({ type: 'story', logo: 'javascript:alert(1)' })).toEqual(['logo']);
    expect(missingRequiredProperties({ type: 'video' })).toEqual(['logo', 'author', 'video', 'source', 'title']);
    expect(missingRequiredProperties({ type: 'quiz' })).toEqual(['logo', 'author', 'footNote']);
    expect(missingRequiredProperties({ type: 'story' })).toEqual(['logo']);
    // A story's logo is its story's own (the story logo upload); the advert's top-level logo, which the preview
    // and the app fall back to, counts too.
    expect(missingRequiredProperties({ type: 'story', story: { logo: '/cdn/story-logo.png' } })).toEqual([]);
    expect(missingRequiredProperties({ type: 'story', logo: '/cdn/logo.png', story: { logo: null } })).toEqual([]);
    expect(missingRequiredProperties({ type: 'story', story: { logo: ' ' } })).toEqual(['logo']);
    expect(missingRequiredProperties({ type: 'notification' })).toEqual(['title', 'source']);
    expect(missingRequiredProperties({ type: 'search' })).toEqual(['title', 'source']);
    expect(missingRequiredProperties({ type: 'tool' })).toEqual([]);
    expect(requiredPropertiesMessage(['logo', 'title'])).toBe('Les propriétés logo, title sont requises');
  });

  it('video, audience and expert rules, joined', () => {
    expect(advertPublicationProblems({ type: 'video', logo: '/cdn/l.png', author: 'a', source: 'app://content/1', title: 't' }, [expert])).toEqual([
      'Vous devez ajouter une vidéo avant de publier la publicité',
    ]);
    expect(advertPublicationProblems({ type: 'tool' }, [])).toEqual(['Aucune audience associée à la publicité']);
    expect(advertPublicationProblems({ type: 'tool' }, [expert, { roles: [] }])).toEqual(['Audience non expert associée à la publicité']);
    expect(advertPublicationProblems({ type: 'tool' }, [expert])).toEqual([]);
    expect(advertPublicationProblems({ type: 'story', logo: null, story: { logo: null } }, [expert])).toEqual(['Les propriétés Logo sont requises']);
    expect(advertPublicationProblems({ type: 'story', logo: null, story: { logo: '/cdn/story-logo.png' } }, [expert])).toEqual([]);
    expect(articlePublicationProblems({ type: 'video', video: null })).toEqual(['Vous devez ajouter une vidéo avant de publier la publicité']);
    expect(articlePublicationProblems({ type: 'post' })).toEqual([]);
  });
});

describe('notRole access (SALES block, spec §6)', () => {
  const everyRoleSet: Role[][] = Array.from({ length: 1 << ROLES.length }, (_, mask) => ROLES.filter((_, i) => mask & (1 << i)));
  it('allows every signed-in role set without SALES, and SALES only with ADMIN', () => {
    const rule = access.notRole('SALES');
    for (const roles of everyRoleSet) expect(isAllowed(rule, roles), roles.join('+')).toBe(roles.includes('ADMIN') || !roles.includes('SALES'));
    expect(isAllowed(rule, null)).toBe(false);
  });
});
