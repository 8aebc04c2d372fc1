import { STORY_SIZE, isVideoIllustration, orderedScreens, storyColour } from '@shared/rules/preview';
import { Logo, mediaOf, type PreviewProps } from './parts';

/**
 * A story on its 270x480 canvas (§2.2, §3 Story / Screen): the progress bars of its screens, the story's logo
 * and title, then the shown screen — colours as typed when valid, the story default #C41723 otherwise — with its
 * illustration (a video when it ends in mp4, webm or ogg) and its footer button. Expanded, the screens can be
 * stepped through.
 */
export function StoryPreview(props: PreviewProps & { screenIndex: number; onScreen: (index: number) => void }) {
  const { item, expanded } = props;
  const story = item.story;
  const screens = orderedScreens(story?.screens);
  const index = Math.min(Math.max(0, expanded ? props.screenIndex : 0), Math.max(0, screens.length - 1));
  const screen = screens[index];
  const illustration = mediaOf(screen?.illustration);
  return (
    <article
      className="pv-story"
      style={{ width: STORY_SIZE.width, height: STORY_SIZE.height, backgroundColor: storyColour(screen?.backgroundColor) }}
      data-testid="pv-story"
      data-screen={screen ? index + 1 : 0}
    >
      <div className="pv-story-progress">
        {(screens.length ? screens : [null]).map((entry, position) => (
          <span key={entry?.id ?? 'none'} className={`pv-story-bar ${position <= index ? 'seen' : ''}`} />
        ))}
      </div>
      <header className="pv-story-header">
        <Logo src={screen?.logo ?? story?.logo ?? item.logo} name={story?.title || item.name} size={28} />
        <span className="pv-story-name">{story?.title || item.name}</span>
      </header>
      {screen ? (
        <div className="pv-story-screen">
          <h3 className="pv-story-title" style={{ color: storyColour(screen.titleColor, '#FFFFFF') }} data-testid="pv-story-title">
            {screen.title}
          </h3>
          {screen.subtitle ? (
            <p className="pv-story-subtitle" style={{ color: storyColour(screen.subtitleColor, '#FFFFFF') }}>
              {screen.subtitle}
            </p>
          ) : null}
          <div className="pv-story-illustration">
            {illustration ? (
              isVideoIllustration(illustration) ? (
                <video src={illustration} muted preload="metadata" />
              ) : (
                <img src={illustration} alt="" />
              )
            ) : null}
          </div>
          <footer className="pv-story-footer" style={{ backgroundColor: storyColour(screen.footerBgColor) }}>
            <span style={{ color: storyColour(screen.footerButtonTextColor, '#FFFFFF') }}>{screen.footerButtonText}</span>
            <span className="pv-story-chevron" style={{ color: storyColour(screen.footerChevronColor, '#FFFFFF') }} aria-hidden="true">
              ›
            </span>
          </footer>
        </div>
      ) : (
        <p className="pv-story-empty">Aucun écran</p>
      )}
      {expanded && screens.length > 1 && (
        <>
          <button
            type="button"
            className="pv-story-nav previous"
            disabled={index === 0}
            onClick={() => props.onScreen(index - 1)}
            aria-label="Écran précédent"
            data-testid="pv-story-previous"
          >
            ‹
          </button>
          <button
            type="button"
            className="pv-story-nav next"
            disabled={index === screens.length - 1}
            onClick={() => props.onScreen(index + 1)}
            aria-label="Écran suivant"
            data-testid="pv-story-next"
          >
            ›
          </button>
        </>
      )}
    </article>
  );
}
