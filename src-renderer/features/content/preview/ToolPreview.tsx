import { Logo, type PreviewProps } from './parts';

/** A sponsored tool tile among the app's tools: logo, title, author and the sponsored mark. */
export function ToolPreview(props: PreviewProps) {
  const { item } = props;
  return (
    <article className="pv-card pv-tool">
      <div className="pv-tool-tile">
        <Logo src={item.logo} name={item.title || item.name} size={48} />
        <strong className="pv-title" data-testid="pv-title">
          {item.title || item.name}
        </strong>
        {item.author ? <span className="pv-author">{item.author}</span> : null}
        {item.tool?.sponsored ? <span className="pv-sponsored">Sponsorisé</span> : null}
      </div>
    </article>
  );
}
