import { CallToAction, CardHeader, FootNote, Picture, Tagline, firstImage, type PreviewProps } from './parts';

/** A post in the feed (§3 Artefact): header, title, tagline, image, call to action, footnote. */
export function PostPreview(props: PreviewProps) {
  const { item } = props;
  return (
    <article className="pv-card pv-post">
      <CardHeader {...props} />
      {item.title ? (
        <h3 className="pv-title" data-testid="pv-title">
          {item.title}
        </h3>
      ) : null}
      <Tagline item={item} />
      <Picture src={firstImage(item)} className="pv-post-image" />
      {item.description ? <p className="pv-description">{item.description}</p> : null}
      <div className="pv-actions">
        <CallToAction item={item} kind={props.kind} />
      </div>
      <FootNote item={item} />
    </article>
  );
}
