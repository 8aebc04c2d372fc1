import { VIDEO_SIZE } from '@shared/rules/preview';
import { CallToAction, CardHeader, Tagline, firstImage, mediaOf, type PreviewProps } from './parts';

/** A video advert on its 618x360 canvas (§2.2): the video (or its cover) under the card header. */
export function VideoPreview(props: PreviewProps) {
  const { item } = props;
  const cover = mediaOf(item.imageSmall ?? firstImage(item));
  const video = mediaOf(item.video);
  return (
    <article className="pv-card pv-video" style={{ width: VIDEO_SIZE.width, height: VIDEO_SIZE.height }}>
      <CardHeader {...props} />
      <div className="pv-video-area">
        {video ? (
          <video className="pv-video-player" src={video} poster={cover ?? undefined} muted preload="metadata" data-testid="pv-video" />
        ) : cover ? (
          // A video of another site cannot play here (CSP): its cover stands in, as the app shows it before playing.
          <div className="pv-video-cover">
            <img className="pv-video-player" src={cover} alt="" data-testid="pv-video-cover" />
            <span className="pv-play" aria-hidden="true">
              ▶
            </span>
          </div>
        ) : (
          <div className="pv-video-empty">
            <span className="pv-play" aria-hidden="true">
              ▶
            </span>
            <span>Vidéo</span>
          </div>
        )}
      </div>
      <footer className="pv-video-footer">
        <span className="pv-video-text">
          {item.title ? (
            <strong className="pv-title" data-testid="pv-title">
              {item.title}
            </strong>
          ) : null}
          <Tagline item={item} />
        </span>
        <CallToAction item={item} kind={props.kind} />
      </footer>
    </article>
  );
}
