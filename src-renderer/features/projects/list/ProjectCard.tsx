import { MessageSquare } from 'lucide-react';
import { Link } from 'react-router-dom';
import { formatDay } from '@shared/rules/dates';
import { CANCELLED_LABEL, CANCELLED_STATUS, formatGoal, statusClass } from '@shared/rules/projects';
import type { ProjectItem } from '../list-atoms';

/** One project and the table of its targets: codes, types, goals and dates on one line, texts wrapped between words. */
export function ProjectCard({ item }: { item: ProjectItem }) {
  return (
    <article className="project-item" data-testid={`project-item-${item.id}`} data-project-name={item.name}>
      <header>
        <Link to={`/project/edit/${item.id}`} className="project-name" data-testid={`project-link-${item.id}`}>
          {item.name}
        </Link>
        <span className="project-client">{item.clientName}</span>
        <span className="project-meta">
          #{item.id}
          {item.keyAccount ? ` · ${item.keyAccount.name}` : ''}
          {item.isProjectCommented && (
            <>
              {' · '}
              <MessageSquare size={12} aria-label="Commenté" className="inline-icon" />
            </>
          )}
        </span>
      </header>
      {item.targets.length > 0 && (
        <table className="table project-targets">
          <thead>
            <tr>
              <th>Code action</th>
              <th>Status</th>
              <th>Type</th>
              <th>Pub</th>
              <th>Spé</th>
              <th>Ciblage</th>
              <th>Objectif</th>
              <th>Début</th>
              <th>Deadline sortie KPIs</th>
              <th>Fin</th>
            </tr>
          </thead>
          <tbody>
            {item.targets.map((target) => (
              <tr key={target.id} data-testid={`project-target-${target.id}`}>
                <td className="nowrap">{target.actionCode}</td>
                <td className="words status-cell">
                  <span className={`status ${statusClass(target.status)}`}>{target.status}</span>
                </td>
                <td className="nowrap">{target.type}</td>
                <td className="nowrap">{target.status === CANCELLED_STATUS ? CANCELLED_LABEL : (target.advertId ?? '')}</td>
                <td className="words">{target.populationCategory}</td>
                <td className="words">{target.populationSample}</td>
                <td className="nowrap">{formatGoal(target.goal)}</td>
                <td className="nowrap">{formatDay(target.startDate)}</td>
                <td className="nowrap">{formatDay(target.checkDate)}</td>
                <td className="nowrap">{formatDay(target.endDate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </article>
  );
}
