import { useAtomValue } from 'jotai';
import { BarChart } from 'chartist';
import { useEffect, useRef } from 'react';
import { LAB_MESSAGES as M } from '@shared/messages/laboratory';
import { TAG_LEVELS, tagStats, UNNAMED_TAG } from '@shared/rules/laboratory';
import { tagDraftsAtom } from './atoms';
import 'chartist/dist/index.css';

/**
 * The Stats tab: users per tag (spec §2), one bar per tag under its name, coloured by its level, drawn as SVG by
 * Chartist (README: chosen for its size and its plain SVG). The same figures are in the table under it, which is
 * what a screen reader reads; the picture is hidden from it.
 */
export function StatsTab() {
  const tags = useAtomValue(tagDraftsAtom);
  const chart = useRef<HTMLDivElement>(null);
  const stats = tagStats(tags);

  useEffect(() => {
    if (!chart.current || tags.length === 0) return;
    const drawn = new BarChart(chart.current, stats, {
      stackBars: true,
      axisY: { onlyInteger: true },
      height: '280px',
      chartPadding: { top: 16, right: 16, bottom: 4, left: 16 },
    });
    return () => {
      drawn.detach();
    };
  });

  if (tags.length === 0) return <p className="lab-empty">{M.noStats}</p>;
  return (
    <div className="lab-stats">
      <h2>{M.statsTitle}</h2>
      <ul className="lab-legend" aria-hidden="true">
        {TAG_LEVELS.map((level, index) => (
          <li key={level} className={`lab-legend-item series-${String.fromCharCode(97 + index)}`}>
            {level}
          </li>
        ))}
      </ul>
      <div ref={chart} className="lab-chart" aria-hidden="true" data-testid="lab-chart" />
      <table className="lab-stats-table" data-testid="lab-stats-table">
        <caption>{M.statsTable}</caption>
        <thead>
          <tr>
            <th scope="col">{M.tagName}</th>
            <th scope="col">{M.tagType}</th>
            <th scope="col">{M.tagLevel}</th>
            <th scope="col" className="number">
              {M.tagUsers}
            </th>
          </tr>
        </thead>
        <tbody>
          {tags.map((tag) => (
            <tr key={tag.key} data-testid="lab-stat-row">
              <th scope="row">{tag.name.trim() || UNNAMED_TAG}</th>
              <td>{tag.type}</td>
              <td>{tag.level}</td>
              <td className="number" data-testid="lab-stat-users">
                {tag.usersCount.toLocaleString('fr-FR')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
