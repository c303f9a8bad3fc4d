import { Observable, Subscription, switchMap } from 'rxjs';
import type { McpClient } from 'rxmcp';
import { type CatalogueKind, catalogueTabs } from './catalogue-tabs.js';
import { byId } from './element.js';
import { catalogueChanges, liveList } from './live-list.js';
import { showPrompts } from './prompt-panel.js';
import { showResources } from './resource-panel.js';
import { serverOffers } from './server-offers.js';
import { showTasks } from './task-panel.js';
import { showTools } from './tool-panel.js';

/**
 * Shows what `mcp`'s server offers in the catalogue: a tab for each of
 * tools, resources, prompts and tasks that its capabilities declare, with
 * the count listed in its label, each list kept up to date as the server
 * announces changes.
 *
 * @param onError told when the tools cannot be listed (the connection's failure, as a rule)
 * @returns everything the catalogue runs: unsubscribing ends it all
 */
export function showCatalogue(mcp: McpClient, onError: (error: Error) => void): Subscription {
  const tabs = catalogueTabs(byId('catalogue-tabs'));
  const empty = byId('catalogue-empty');
  empty.hidden = true;
  return mcp
    .describe()
    .pipe(
      switchMap(
        (found) =>
          new Observable<never>(() => {
            const offers = serverOffers(found.capabilities);
            const kinds = (['tools', 'resources', 'prompts', 'tasks'] as const).filter((kind) => offers[kind]);
            tabs.offer(kinds);
            empty.hidden = kinds.length > 0;
            const count = (kind: CatalogueKind) => (n: number) => tabs.count(kind, n);
            const changes = catalogueChanges(mcp, offers.listChanges);
            const parts = new Subscription();
            if (offers.tools) {
              const tools = liveList(changes, 'notifications/tools/list_changed', (refresh) => mcp.listTools({ refresh }));
              parts.add(showTools(mcp, onError, { tools, tasks: offers.toolTasks, onCount: count('tools') }));
            }
            if (offers.resources) parts.add(showResources(mcp, { changes, subscribe: offers.subscribe, completions: offers.completions, onCount: count('resources') }));
            if (offers.prompts) parts.add(showPrompts(mcp, { changes, completions: offers.completions, onCount: count('prompts') }));
            if (offers.tasks) {
              const tasks = showTasks(mcp, { listable: offers.listTasks, onCount: count('tasks') });
              parts.add(tasks.subscription);
              tabs.onSelect((kind) => kind === 'tasks' && tasks.refresh());
            }
            return parts;
          }),
      ),
    )
    .subscribe({ error: onError });
}
