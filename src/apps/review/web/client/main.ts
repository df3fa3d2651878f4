/**
 * The sopworks viewer page (bundled by esbuild into /assets/app.js: server/client-bundle.ts). It
 * draws what the server's JSON API says and, on a run's page, redraws when the server's event stream
 * says the run changed.
 */
import { showError } from './badges.ts';
import { RunView } from './run-view.ts';
import { showRuns } from './runs-page.ts';

const byId = (id: string): HTMLElement => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`The page has no #${id}: reload it.`);
  return el;
};

async function route(): Promise<void> {
  const app = byId('app');
  const match = /^\/runs\/([^/]+)\/?$/.exec(location.pathname);
  try {
    if (match) new RunView(app, byId('live'), decodeURIComponent(match[1]!)).start(byId('crumbs'));
    else await showRuns(app, byId('crumbs'));
  } catch (error) {
    showError(app, error);
  }
}

void route();
