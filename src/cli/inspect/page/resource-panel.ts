import { catchError, combineLatest, filter, type Observable, of, Subject, Subscription, throttleTime } from 'rxjs';
import type { McpClient, Resource, ResourceTemplate } from 'rxmcp';
import { actionButton, actionRow, outcome } from './call-parts.js';
import { catalogueEntry, catalogueList } from './catalogue-list.js';
import { resourceContentsView } from './content-view.js';
import { byId, element } from './element.js';
import { liveList } from './live-list.js';
import { templateForm } from './template-form.js';

/**
 * The most resources subscribed to at once. On a 2026-07-28 server each is
 * a `subscriptions/listen` held open, and a browser keeps only six
 * connections to one host: more would leave none for calls.
 */
export const MAX_SUBSCRIBED = 4;

/** What the resource panel needs besides the client. */
export interface ResourcePanelOptions {
  /** The server's list changes (see `catalogueChanges`). */
  changes: Observable<string>;
  /** The server declared `resources.subscribe`. */
  subscribe: boolean;
  /** The server declared `completions`. */
  completions: boolean;
  /** Told the number of resources and templates at each listing. */
  onCount(count: number): void;
}

/** A subscribed resource: its updates since subscribing. */
interface Watch {
  subscription: Subscription;
  updates: number;
}

/** The resource shown in the Call panel, told of its updates. */
interface Shown {
  uri: string;
  updated: Subject<void>;
  line: HTMLElement;
}

const LIST_CHANGED = 'notifications/resources/list_changed';

/**
 * Shows the server's resources and resource templates in the Resources
 * panel, listed again when the server says they changed. Choosing a
 * resource shows it in the Call panel: Read shows its contents, and, when
 * the server offers it, Subscribe asks for its updates (the page counts
 * them, and reads a shown resource again at each, at most twice a
 * second). Choosing a template shows a form of its variables; Read expands
 * it and reads that URI.
 *
 * @returns the listing, the shown resource's reads and every subscription: unsubscribing ends them all
 */
export function showResources(mcp: McpClient, options: ResourcePanelOptions): Subscription {
  const panel = byId('resources');
  const watched = new Map<string, Watch>();
  let viewing = new Subscription();
  let shown: Shown | undefined;

  const resources = liveList(options.changes, LIST_CHANGED, (refresh) => mcp.listResources({ refresh }));
  // A server with no templates may not know the method: it has none to show.
  const templates = liveList(options.changes, LIST_CHANGED, (refresh) => mcp.listResourceTemplates({ refresh }).pipe(catchError(() => of([]))));
  const all = combineLatest([resources, templates]).subscribe({
    next: ([listed, families]) => {
      options.onCount(listed.length + families.length);
      panel.replaceChildren(
        element('h3', 'Resources'),
        catalogueList(listed, (resource) => {
          const entry = catalogueEntry(resource.title ?? resource.name, [resource.name, resource.uri, resource.mimeType], () => showResource(resource));
          entry.dataset.resource = resource.uri;
          entry.classList.toggle('subscribed', watched.has(resource.uri));
          return entry;
        }),
        element('h3', 'Templates'),
        catalogueList(families, (template) => {
          const entry = catalogueEntry(template.title ?? template.name, [template.name, template.uriTemplate, template.mimeType], () => showTemplate(template));
          entry.dataset.template = template.uriTemplate;
          return entry;
        }),
      );
    },
    error: (error: Error) => panel.replaceChildren(element('p', `The resources could not be listed: ${error.message}`)),
  });
  all.add(() => {
    viewing.unsubscribe();
    watched.forEach((watch) => watch.subscription.unsubscribe());
  });
  return all;

  /** Puts a new view in the Call panel, ending what the last one of this panel ran. */
  function leave(): Subscription {
    viewing.unsubscribe();
    viewing = new Subscription();
    shown = undefined;
    return viewing;
  }

  function showResource(resource: Resource): void {
    const view = leave();
    const { uri } = resource;
    const [status, output] = outcome();
    const read = actionButton('Read', 'read');
    const actions = actionRow(read);
    const line = element('p', updatesLine(watched.get(uri)));
    line.id = 'updates';
    if (options.subscribe) actions.append(subscribeButton(uri, line, status));
    byId('call').replaceChildren(element('h2', resource.title ?? resource.name), element('p', resource.description ?? ''), meta(uri, resource.mimeType), actions, line, status, output);
    let reading: Subscription | undefined;
    const readNow = (why: string): void => {
      reading?.unsubscribe();
      status.textContent = 'reading…';
      reading = mcp.readResource(uri).subscribe({
        next: (result) => {
          status.textContent = `${why} at ${new Date().toLocaleTimeString()}`;
          output.replaceChildren(resourceContentsView(result.contents));
        },
        error: (error: Error) => (status.textContent = `failed: ${error.message}`),
      });
      view.add(reading);
    };
    read.onclick = () => readNow('read');
    const updated = new Subject<void>();
    view.add(updated.pipe(throttleTime(500, undefined, { leading: true, trailing: true })).subscribe(() => readNow('read again after an update')));
    shown = { uri, updated, line };
  }

  function subscribeButton(uri: string, line: HTMLElement, status: HTMLElement): HTMLButtonElement {
    const toggle = actionButton(watched.has(uri) ? 'Unsubscribe' : 'Subscribe', 'subscribe');
    toggle.onclick = () => {
      const watch = watched.get(uri);
      if (watch) {
        watch.subscription.unsubscribe();
        watched.delete(uri);
      } else if (watched.size >= MAX_SUBSCRIBED) {
        status.textContent = `At most ${MAX_SUBSCRIBED} resources are subscribed to at once: unsubscribe from another first.`;
        return;
      } else {
        watched.set(uri, watchOf(uri));
      }
      toggle.textContent = watched.has(uri) ? 'Unsubscribe' : 'Subscribe';
      line.textContent = updatesLine(watched.get(uri));
      for (const entry of panel.querySelectorAll<HTMLElement>('button[data-resource]')) if (entry.dataset.resource === uri) entry.classList.toggle('subscribed', watched.has(uri));
    };
    return toggle;
  }

  function watchOf(uri: string): Watch {
    const watch: Watch = { subscription: new Subscription(), updates: 0 };
    watch.subscription = mcp
      .listen({ resourceSubscriptions: [uri] })
      .pipe(filter((notification) => notification.method === 'notifications/resources/updated'))
      .subscribe({
        next: () => {
          watch.updates += 1;
          if (shown?.uri !== uri) return;
          shown.line.textContent = updatesLine(watch);
          shown.updated.next();
        },
        error: (error: Error) => {
          watched.delete(uri);
          if (shown?.uri === uri) shown.line.textContent = `The subscription ended: ${error.message}`;
        },
      });
    return watch;
  }

  function showTemplate(template: ResourceTemplate): void {
    const view = leave();
    const form = templateForm(mcp, template, options.completions);
    view.add(form.completing);
    const [status, output] = outcome();
    const read = actionButton('Read', 'read');
    const actions = actionRow(read);
    byId('call').replaceChildren(element('h2', template.title ?? template.name), element('p', template.description ?? ''), meta(template.uriTemplate, template.mimeType), form.view, actions, status, output);
    let reading: Subscription | undefined;
    read.onclick = () => {
      reading?.unsubscribe();
      const uri = form.uri();
      status.textContent = `reading ${uri}…`;
      reading = mcp.readResource(uri).subscribe({
        next: (result) => {
          status.textContent = `read ${uri}`;
          output.replaceChildren(resourceContentsView(result.contents));
        },
        error: (error: Error) => (status.textContent = `failed: ${error.message}`),
      });
      view.add(reading);
    };
  }
}

function updatesLine(watch: Watch | undefined): string {
  if (!watch) return '';
  return watch.updates === 0 ? 'Subscribed: no update yet.' : `Subscribed: ${watch.updates} update${watch.updates === 1 ? '' : 's'} so far.`;
}

function meta(uri: string, mimeType: string | undefined): HTMLElement {
  const line = element('p', mimeType === undefined ? uri : `${uri} · ${mimeType}`);
  line.className = 'meta';
  return line;
}
