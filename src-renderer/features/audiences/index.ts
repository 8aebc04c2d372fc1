/** The audiences feature's public face: the history panel that groups share. */
export { HistoryPanel } from './history/audience-history';
