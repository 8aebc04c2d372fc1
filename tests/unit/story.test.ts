import { describe, expect, it } from 'vitest';
import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { STORY_MESSAGES } from '@shared/messages/story';
import { validateForSave } from '@shared/rules/advert-screens/save-checks';
import {
  dropIndex,
  inPositionOrder,
  invalidColourFields,
  isValidStoryColour,
  keyboardReorderStep,
  mediaKindOf,
  move,
  reorderAnnouncement,
  reorderScreens,
  screenNumber,
  storyHasInvalidColour,
  toColourPickerValue,
} from '@shared/rules/story';

describe('story colours (§5)', () => {
  it('accepts #rgb and #rrggbb, in any case, and nothing else', () => {
    for (const good of ['#fff', '#FFF', '#C41723', '#c41723', ' #abc ']) expect(isValidStoryColour(good), good).toBe(true);
    for (const bad of ['fff', '#ffff', '#fffff', '#12345g', '#1234567', 'red', 'rgb(0,0,0)', '#', '', null, undefined])
      expect(isValidStoryColour(bad), String(bad)).toBe(false);
  });

  it('names the filled colour fields that are wrong; empty ones are not warned', () => {
    expect(invalidColourFields({ titleColor: '#fff', subtitleColor: 'blue', backgroundColor: '', footerBgColor: '#12' })).toEqual([
      'subtitleColor',
      'footerBgColor',
    ]);
    expect(storyHasInvalidColour([{ titleColor: '#fff' }, { footerChevronColor: '#ggg' }])).toBe(true);
    expect(storyHasInvalidColour([{ titleColor: '#fff' }])).toBe(false);
    expect(storyHasInvalidColour(null)).toBe(false);
  });

  it('agrees with the save check and its message', () => {
    const story = (color: string) => ({ name: 'Story', type: 'story', logo: 'https://cdn/logo.png', story: { screens: [{ titleColor: color }] } });
    expect(validateForSave(story('#12345'), 'advert').messages).toEqual([M.storyColourInvalid]);
    expect(validateForSave(story('#123456'), 'advert').messages).toEqual([]);
    expect(M.storyColourInvalid).toBe("Il y a une erreur dans le format d'une couleur de story");
  });

  it('gives the colour picker a #rrggbb value, or nothing for a wrong colour', () => {
    expect(toColourPickerValue('#AbC')).toBe('#aabbcc');
    expect(toColourPickerValue('#C41723')).toBe('#c41723');
    expect(toColourPickerValue('#C4172')).toBeNull();
  });
});

describe('media kind of an illustration (§3)', () => {
  it('is a video for mp4, webm and ogg, whatever the case, query or fragment', () => {
    for (const video of ['a.mp4', 'https://cdn/x/clip.WEBM', '/cdn/a.ogg?d=123', 'a.mp4#t=2']) expect(mediaKindOf(video), video).toBe('video');
    for (const image of ['a.png', 'a.jpg?d=1', 'https://cdn/mp4/picture.gif', 'mp4', 'a.mp4.png']) expect(mediaKindOf(image), image).toBe('image');
    expect(mediaKindOf('')).toBe('none');
    expect(mediaKindOf(null)).toBe('none');
  });
});

describe('screen numbering and reordering', () => {
  it('numbers screens from 1, as the delete confirm says', () => {
    expect(screenNumber(0)).toBe(1);
    expect(STORY_MESSAGES.confirmDeleteScreen(screenNumber(2))).toBe("Supprimer l'écran n°3");
  });

  it('moves one entry, the others keeping their order', () => {
    expect(move(['a', 'b', 'c', 'd'], 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(move(['a', 'b', 'c', 'd'], 3, 0)).toEqual(['d', 'a', 'b', 'c']);
    expect(move(['a', 'b', 'c'], 1, 1)).toEqual(['a', 'b', 'c']);
    expect(move(['a', 'b', 'c'], 0, 99)).toEqual(['b', 'c', 'a']);
    expect(move([], 0, 1)).toEqual([]);
    const list = ['a', 'b'];
    move(list, 0, 1);
    expect(list).toEqual(['a', 'b']);
  });

  it('renumbers positions after a move, and reads stored screens in position order', () => {
    const screens = [
      { id: 1, position: 0 },
      { id: 2, position: 1 },
      { id: 3, position: 2 },
    ];
    expect(reorderScreens(screens, 2, 0)).toEqual([
      { id: 3, position: 0 },
      { id: 1, position: 1 },
      { id: 2, position: 2 },
    ]);
    expect(
      inPositionOrder([
        { id: 1, position: 2 },
        { id: 2, position: 0 },
        { id: 3, position: 1 },
      ]).map((s) => s.id),
    ).toEqual([2, 3, 1]);
  });

  it('finds where a dragged bullet lands from the pointer', () => {
    const centres = [10, 30, 50];
    expect(dropIndex(centres, 55, 0)).toBe(2);
    expect(dropIndex(centres, 35, 0)).toBe(1);
    expect(dropIndex(centres, 5, 2)).toBe(0);
    expect(dropIndex(centres, 25, 2)).toBe(1);
    expect(dropIndex(centres, 12, 0)).toBe(0);
    expect(dropIndex(centres, 45, 1)).toBe(1);
  });
});

describe('keyboard reordering of the screen bullets', () => {
  const free = (index: number) => ({ index, grabbedFrom: null });
  const grabbed = (index: number, from: number) => ({ index, grabbedFrom: from });

  it('moves the focus with Arrows and the bullet with Alt+Arrow', () => {
    expect(keyboardReorderStep(free(1), 'ArrowRight', {}, 3)).toEqual({ kind: 'focus', index: 2 });
    expect(keyboardReorderStep(free(1), 'ArrowLeft', {}, 3)).toEqual({ kind: 'focus', index: 0 });
    expect(keyboardReorderStep(free(0), 'Home', {}, 3)).toEqual({ kind: 'none' });
    expect(keyboardReorderStep(free(0), 'End', {}, 3)).toEqual({ kind: 'focus', index: 2 });
    expect(keyboardReorderStep(free(1), 'ArrowRight', { alt: true }, 3)).toEqual({ kind: 'move', from: 1, to: 2, commit: true });
    expect(keyboardReorderStep(free(0), 'ArrowLeft', { alt: true }, 3)).toEqual({ kind: 'none' });
    expect(keyboardReorderStep(free(2), 'ArrowDown', { alt: true }, 3)).toEqual({ kind: 'none' });
    expect(keyboardReorderStep(free(1), 'a', {}, 3)).toEqual({ kind: 'none' });
  });

  it('picks up with Space or Enter, moves, drops, or puts back with Escape', () => {
    expect(keyboardReorderStep(free(0), ' ', {}, 3)).toEqual({ kind: 'grab', index: 0 });
    expect(keyboardReorderStep(free(0), 'Enter', {}, 3)).toEqual({ kind: 'grab', index: 0 });
    expect(keyboardReorderStep(grabbed(0, 0), 'ArrowRight', {}, 3)).toEqual({ kind: 'move', from: 0, to: 1, commit: false });
    expect(keyboardReorderStep(grabbed(1, 0), 'End', {}, 3)).toEqual({ kind: 'move', from: 1, to: 2, commit: false });
    expect(keyboardReorderStep(grabbed(2, 0), 'ArrowRight', {}, 3)).toEqual({ kind: 'none' });
    expect(keyboardReorderStep(grabbed(2, 0), ' ', {}, 3)).toEqual({ kind: 'drop', from: 0, to: 2 });
    expect(keyboardReorderStep(grabbed(2, 0), 'Escape', {}, 3)).toEqual({ kind: 'cancel', from: 2, to: 0 });
    expect(keyboardReorderStep(grabbed(2, 0), 'Tab', {}, 3)).toEqual({ kind: 'none' });
  });

  it('does nothing on an empty or inconsistent list', () => {
    expect(keyboardReorderStep(free(0), ' ', {}, 0)).toEqual({ kind: 'none' });
    expect(keyboardReorderStep(free(5), 'ArrowLeft', {}, 3)).toEqual({ kind: 'none' });
  });

  it('announces each step, positions counted from 1', () => {
    expect(reorderAnnouncement({ kind: 'grab', index: 0 }, 3)).toContain('Écran n°1 saisi');
    expect(reorderAnnouncement({ kind: 'move', from: 0, to: 1, commit: false }, 3)).toBe('Écran déplacé en position 2 sur 3.');
    expect(reorderAnnouncement({ kind: 'drop', from: 0, to: 2 }, 3)).toBe('Écran déposé en position 3 sur 3.');
    expect(reorderAnnouncement({ kind: 'cancel', from: 2, to: 0 }, 3)).toContain('position 1');
    expect(reorderAnnouncement({ kind: 'focus', index: 1 }, 3)).toBeNull();
  });
});
