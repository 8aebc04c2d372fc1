import type { Ref } from 'react';
import type { StoryScreen } from '@shared/contract/content';
import { mediaKindOf, screenNumber, STORY_CANVAS, toColourPickerValue } from '@shared/rules/story';
import { mediaOf } from '../preview/parts';

/** A colour the canvas may paint: the field when it is #rgb / #rrggbb, else the fallback. */
const paint = (value: string | null | undefined, fallback: string) => toColourPickerValue(value) ?? fallback;

/** The 270x480 canvas of the selected screen (§2.3): its image or video, logo, texts and colours. */
export function ScreenCanvas({ ref, ...props }: { screen: StoryScreen; storyLogo: string | null | undefined; ref?: Ref<HTMLDivElement> }) {
  const { screen } = props;
  const kind = mediaKindOf(screen.illustration);
  const logo = screen.logo || props.storyLogo;
  return (
    <div
      ref={ref}
      className="story-canvas"
      style={{ width: STORY_CANVAS.width, height: STORY_CANVAS.height, background: paint(screen.backgroundColor, '#c41723') }}
      data-testid="story-canvas"
      data-media-kind={kind}
      aria-label={`Écran n°${screenNumber(screen.position)}`}
    >
      <div className="story-canvas-media">
        {kind === 'video' && (
          <video
            key={screen.illustration}
            src={mediaOf(screen.illustration) ?? undefined}
            muted
            loop
            playsInline
            controls
            data-testid="story-canvas-video"
          />
        )}
        {kind === 'image' && (
          <img key={screen.illustration} src={mediaOf(screen.illustration) ?? undefined} alt="" data-testid="story-canvas-image" />
        )}
        {kind === 'none' && <span className="story-canvas-empty">Aucune image ou vidéo</span>}
      </div>
      {logo && mediaOf(logo) && <img className="story-canvas-logo" src={mediaOf(logo) ?? undefined} alt="Logo" data-testid="story-canvas-logo" />}
      <div className="story-canvas-texts">
        <p className="story-canvas-title" style={{ color: paint(screen.titleColor, '#ffffff') }} data-testid="story-canvas-title">
          {screen.title}
        </p>
        <p className="story-canvas-subtitle" style={{ color: paint(screen.subtitleColor, '#ffffff') }}>
          {screen.subtitle}
        </p>
      </div>
      <div className="story-canvas-footer" style={{ background: paint(screen.footerBgColor, '#c41723') }} data-testid="story-canvas-footer">
        <span style={{ color: paint(screen.footerButtonTextColor, '#ffffff') }}>{screen.footerButtonText}</span>
        <span className="story-canvas-chevron" style={{ color: paint(screen.footerChevronColor, '#ffffff') }} aria-hidden="true">
          ›
        </span>
      </div>
    </div>
  );
}
