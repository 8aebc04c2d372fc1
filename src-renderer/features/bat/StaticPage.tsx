import type { BatPage } from '@shared/contract/bat';
import { ARROW_COLOR, BAT_CANVAS, gridToPixels } from '@shared/rules/bat';
import { RichText } from './RichText';

/**
 * An image item as the editor shows it (object-fit: contain), drawn as a contained background: html2canvas, which
 * draws the PDF, knows background-size but not object-fit (an <img> would come out stretched).
 */
function ContainedImage({ url }: { url: string | null }) {
  return <div className="bat-image bat-static-image" role="img" style={{ backgroundImage: url ? `url(${JSON.stringify(url)})` : undefined }} />;
}

/**
 * A page of the proof drawn without editors or grid (what the PDF captures): the same positions as the grid
 * places them, layers by level, arrows above each layer.
 */
export function StaticPage({ page }: { page: BatPage }) {
  const layers = [...page.layers].sort((a, b) => a.level - b.level);
  return (
    <div className="bat-static-page" data-testid="bat-static-page" style={{ width: BAT_CANVAS.width, height: BAT_CANVAS.height }}>
      {layers.map((layer) => (
        <div key={layer.id} className="bat-layer" style={{ zIndex: layer.level }}>
          {layer.content
            .filter((item) => item.type !== 'arrow')
            .map((item) => (
              <div key={item.i} className={`bat-item bat-item-${item.type}`} style={{ position: 'absolute', ...gridToPixels(item) }}>
                {item.type === 'text' ? (
                  <RichText state={item.content} />
                ) : item.displayApp ? (
                  <div className="bat-mobile-frame">
                    <div className="bat-mobile-notch" />
                    <div className="bat-mobile-screen">
                      <ContainedImage url={item.url} />
                    </div>
                  </div>
                ) : (
                  <ContainedImage url={item.url} />
                )}
              </div>
            ))}
          <svg className="bat-arrows" width={BAT_CANVAS.width} height={BAT_CANVAS.height}>
            <defs>
              <marker
                id={`static-head-${layer.id}`}
                viewBox="0 0 10 10"
                refX="8"
                refY="5"
                markerWidth="6"
                markerHeight="6"
                orient="auto-start-reverse"
              >
                <path d="M 0 0 L 10 5 L 0 10 z" fill={ARROW_COLOR} />
              </marker>
            </defs>
            {layer.content
              .filter((item) => item.type === 'arrow')
              .map((arrow) => (
                <line
                  key={arrow.i}
                  x1={arrow.x}
                  y1={arrow.y}
                  x2={arrow.w}
                  y2={arrow.h}
                  stroke={ARROW_COLOR}
                  strokeWidth={4}
                  markerEnd={`url(#static-head-${layer.id})`}
                />
              ))}
          </svg>
        </div>
      ))}
    </div>
  );
}
