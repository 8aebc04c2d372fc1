import { describe, expect, it } from 'vitest';
import {
  ADVERT_CTA,
  ARTICLE_CTA,
  callToActionColours,
  canCapture,
  canExpand,
  canvasSize,
  clampZoom,
  cutTagline,
  displayableMedia,
  hasBatButton,
  initialZoom,
  isVideoIllustration,
  nextQuizStep,
  orderedScreens,
  percentageOf,
  previewState,
  screenshotFileName,
  sourceHost,
  storyColour,
  zoomIn,
  zoomOut,
} from '@shared/rules/preview';

describe('preview rules (adverts-articles.md §2.2, §3, §5)', () => {
  it('cuts the tagline at 180 characters with Lire la suite only when showReadMore is on', () => {
    const long = 'a'.repeat(200);
    expect(cutTagline(long, true)).toEqual({ text: `${'a'.repeat(180)}…`, readMore: true });
    expect(cutTagline(long, undefined).readMore).toBe(true);
    expect(cutTagline(long, false)).toEqual({ text: long, readMore: false });
    expect(cutTagline('a'.repeat(180), true)).toEqual({ text: 'a'.repeat(180), readMore: false });
    expect(cutTagline(null, true)).toEqual({ text: '', readMore: false });
    // Counted in characters: an emoji is never split in two.
    const emoji = '😀'.repeat(181);
    expect(Array.from(cutTagline(emoji, true).text)).toHaveLength(181);
  });

  it('keeps the zoom on the 0.05 grid between 0.5 and 1, 0.9 when expanded', () => {
    expect(zoomIn(1)).toBe(1);
    expect(zoomOut(0.5)).toBe(0.5);
    expect(zoomOut(1)).toBe(0.95);
    let zoom = 0.5;
    for (let i = 0; i < 10; i += 1) zoom = zoomIn(zoom);
    expect(zoom).toBe(1);
    expect(clampZoom(0.73)).toBe(0.75);
    expect(clampZoom(Number.NaN)).toBe(1);
    expect(initialZoom('story', true, 300)).toBe(0.9);
    expect(initialZoom('video', false, 310)).toBe(0.5);
    expect(initialZoom('post', false, 310)).toBe(0.85);
    expect(initialZoom('story', false, 1000)).toBe(1);
  });

  it('sizes the canvas: 270x480 for a story, 618x360 for a video', () => {
    expect(canvasSize('story')).toEqual({ width: 270, height: 480 });
    expect(canvasSize('video')).toEqual({ width: 618, height: 360 });
    expect(canvasSize('post').height).toBeNull();
  });

  it('offers expand, capture and BAT by type', () => {
    expect(canExpand('story') && canExpand('quiz')).toBe(true);
    expect(canExpand('post')).toBe(false);
    expect(canCapture('post', false) && canCapture('video', false)).toBe(true);
    expect(canCapture('quiz', false)).toBe(false);
    expect(canCapture('quiz', true) && canCapture('story', true)).toBe(true);
    expect(canCapture('search', true)).toBe(false);
    expect(hasBatButton('search')).toBe(false);
    expect(hasBatButton('banner')).toBe(true);
  });

  it('says what the pane shows for a new, typeless or typed item', () => {
    expect(previewState({ type: 'post' })).toBe('new');
    expect(previewState({ id: 3, type: null })).toBe('typeMissing');
    expect(previewState({ id: 3, type: 'post' })).toBe('ready');
    expect(previewState({ id: 3, type: 'other' })).toBe('unknownType');
  });

  it('picks the call-to-action colours: own valid colours, else white on red for articles, dark on light otherwise', () => {
    expect(callToActionColours('article', null)).toEqual(ARTICLE_CTA);
    expect(callToActionColours('advert', null)).toEqual(ADVERT_CTA);
    expect(callToActionColours('advert', { textColor: '#fff', backgroundColor: '#123456' })).toEqual({
      textColor: '#fff',
      backgroundColor: '#123456',
    });
    expect(callToActionColours('advert', { textColor: 'red', backgroundColor: '#123456' })).toEqual(ADVERT_CTA);
    expect(ARTICLE_CTA).toEqual({ textColor: '#FFFFFF', backgroundColor: '#C41723' });
  });

  it('falls back to the story default colour #C41723 for an invalid colour', () => {
    expect(storyColour('#abc')).toBe('#abc');
    expect(storyColour('#abcd')).toBe('#C41723');
    expect(storyColour(null)).toBe('#C41723');
    expect(storyColour('nope', '#FFFFFF')).toBe('#FFFFFF');
  });

  it('orders screens, detects video illustrations, steps the quiz, bounds percentages', () => {
    expect(
      orderedScreens([
        { id: 2, position: 1 },
        { id: 1, position: 1 },
        { id: 3, position: 0 },
      ]).map((s) => s.id),
    ).toEqual([3, 1, 2]);
    expect(isVideoIllustration('/cdn/a/b.webm?d=1')).toBe(true);
    expect(isVideoIllustration('/cdn/a/b.png')).toBe(false);
    expect(nextQuizStep('answer')).toBe('results');
    expect(nextQuizStep('more')).toBe('more');
    expect(percentageOf(140)).toBe(100);
    expect(percentageOf(Number.NaN)).toBe(0);
    expect(percentageOf(33.4)).toBe(33);
  });

  it("shows only media of the page's own origin (the CSP refuses the others)", () => {
    const origin = 'http://127.0.0.1:4173';
    expect(displayableMedia('/cdn/assets/adverts/1/logo.png?d=1', origin)).toBe('/cdn/assets/adverts/1/logo.png?d=1');
    expect(displayableMedia(`${origin}/cdn/x.png`, origin)).toBe(`${origin}/cdn/x.png`);
    expect(displayableMedia('https://cdn.exemple.fr/logo.png', origin)).toBeNull();
    expect(displayableMedia('//cdn.exemple.fr/logo.png', origin)).toBeNull();
    expect(displayableMedia('javascript:alert(1)', origin)).toBeNull();
    expect(displayableMedia(null, origin)).toBeNull();
  });

  it('names a capture and a source host', () => {
    expect(screenshotFileName(12, new Date('2026-01-02T03:04:05.006Z'))).toBe('preview-12-2026-01-02T03-04-05-006Z.png');
    expect(sourceHost('https://www.exemple.fr/page')).toBe('exemple.fr');
    expect(sourceHost('pas une url')).toBe('');
  });
});
