import type { Subscription } from 'rxjs';
import type { JsonRpcMessage, LoggingLevel, McpClient } from 'rxmcp';
import { BoundedList } from './bounded-list.js';
import { byId, element } from './element.js';
import { jsonText } from './json-text.js';
import type { WireMessage } from './traffic-transport.js';

/** The rows each list keeps: a server may send without end. */
const MAX_ROWS = 500;
/** The longest log line shown. */
const MAX_LINE_CHARS = 10_000;
/**
 * The longest JSON text kept of one message. A row keeps this text alone,
 * written as the message passes, never the message: 500 rows of 64 MiB
 * messages would take the tab down.
 */
const MAX_MESSAGE_CHARS = 20_000;
/** The most requests still waiting for an answer that the log keeps paired. */
const MAX_WAITING = 1000;

/** The levels a server's log can be set to, least severe first (the spec's syslog order). */
export const LOG_LEVELS: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/**
 * The Activity section: the server's log (with the level it sends from),
 * its notifications, and every request and answer with how long the answer
 * took; each row opens to its messages as JSON.
 */
export class Activity {
  private readonly log = new BoundedList(byId('log'), MAX_ROWS);
  private readonly notifications = new BoundedList(byId('notifications'), MAX_ROWS);
  private readonly requests = new BoundedList(byId('requests'), MAX_ROWS);
  private readonly level = byId('log-level') as HTMLSelectElement;
  private readonly levelNote = byId('log-level-note');
  /** Requests waiting for their answer, by who asked and id: an answer fills in its row. */
  private waiting = new Map<string, { row: Row; sentAt: number }>();
  private notificationCount = 0;

  constructor() {
    for (const tab of document.querySelectorAll<HTMLButtonElement>('#activity [role=tab]')) tab.onclick = () => this.show(tab.dataset.pane ?? 'log');
  }

  /** The level the person chose; a new connection asks the server for it. */
  get logLevel(): LoggingLevel {
    return this.level.value as LoggingLevel;
  }

  /** Empties the lists, for a new connection. */
  clear(): void {
    this.log.clear();
    this.notifications.clear();
    this.requests.clear();
    this.waiting = new Map();
    this.notificationCount = 0;
    this.count();
    this.levelNote.textContent = '';
  }

  /** Binds the level selector and the log to `mcp`. */
  bind(mcp: McpClient): Subscription {
    let setting: Subscription | undefined;
    // A new level applies at once: the server is told when the person picks it.
    this.level.onchange = () => {
      setting?.unsubscribe();
      this.levelNote.textContent = 'setting…';
      setting = mcp.setLogLevel(this.logLevel).subscribe({
        complete: () => (this.levelNote.textContent = ''),
        error: (error: Error) => (this.levelNote.textContent = `not set: ${error.message}`),
      });
    };
    const subscription = mcp.log$.subscribe(({ level, logger, data }) => this.line(`[${level}]${logger ? ` ${logger}:` : ''} ${typeof data === 'string' ? cut(data) : jsonText(data, MAX_LINE_CHARS)}`));
    subscription.add(() => {
      setting?.unsubscribe();
      this.level.onchange = null;
    });
    return subscription;
  }

  /** Adds a line of the page's own to the log. */
  line(text: string): void {
    this.log.push(() => element('div', text));
  }

  /** Puts one message that crossed the wire where it belongs: a notification from the server, or a request or answer. */
  record(wire: WireMessage): void {
    const { message, direction } = wire;
    const method = 'method' in message && typeof message.method === 'string' ? message.method : undefined;
    const hasId = 'id' in message && (typeof message.id === 'string' || typeof message.id === 'number');
    if (method !== undefined && !hasId && direction === 'in') {
      this.notificationCount++;
      this.count();
      const details = snapshot(wire, MAX_MESSAGE_CHARS);
      this.notifications.push(() => row(`${clock(wire.at)}  ${method}`, [details]).element);
      return;
    }
    if (method !== undefined) {
      const title = `${clock(wire.at)}  ${direction === 'out' ? '→' : '←'} ${method}${hasId ? ` #${String(message.id)}` : ''}`;
      const shown = row(hasId ? `${title}  · waiting` : title, [snapshot(wire, MAX_MESSAGE_CHARS)]);
      if (hasId) this.await(`${direction}:${String(message.id)}`, shown, wire.at);
      this.requests.push(() => shown.element);
      return;
    }
    // An answer: to a request that went the other way.
    const key = `${direction === 'in' ? 'out' : 'in'}:${String((message as { id?: unknown }).id)}`;
    const asked = this.waiting.get(key);
    if (!asked) {
      const details = snapshot(wire, MAX_MESSAGE_CHARS);
      this.requests.push(() => row(`${clock(wire.at)}  ${direction === 'out' ? '→' : '←'} answer #${String((message as { id?: unknown }).id)}`, [details]).element);
      return;
    }
    this.waiting.delete(key);
    const error = (message as { error?: { code?: unknown } }).error;
    const outcome = error ? `error ${String(error.code)}` : 'ok';
    const { title, element: shown, details } = asked.row;
    title.textContent = (title.textContent ?? '').replace(/ · waiting$/, ` · ${Math.round(wire.at - asked.sentAt)} ms · ${outcome}`);
    if (error) shown.classList.add('failed');
    details.push(snapshot(wire, MAX_MESSAGE_CHARS));
  }

  private await(key: string, shown: Row, sentAt: number): void {
    this.waiting.set(key, { row: shown, sentAt });
    // The oldest unanswered request is forgotten first; its row stays, waiting.
    if (this.waiting.size > MAX_WAITING) this.waiting.delete(this.waiting.keys().next().value as string);
  }

  private count(): void {
    const tab = document.querySelector<HTMLElement>('#activity [data-pane=notifications]');
    if (tab) tab.textContent = `Notifications (${this.notificationCount.toLocaleString('en')})`;
  }

  private show(pane: string): void {
    for (const tab of document.querySelectorAll<HTMLButtonElement>('#activity [role=tab]')) {
      const chosen = tab.dataset.pane === pane;
      tab.setAttribute('aria-selected', String(chosen));
      byId(`pane-${tab.dataset.pane}`).hidden = !chosen;
    }
  }
}

/** A row of the log: its title (a button that opens it) and the text of the messages it stands for. */
interface Row {
  element: HTMLElement;
  title: HTMLButtonElement;
  details: string[];
}

// A message as a row shows it: which way and when, and its JSON, cut at `maxChars`.
function snapshot({ direction, at, message }: WireMessage, maxChars: number): string {
  return `${direction === 'out' ? 'sent' : 'received'} ${clock(at)}\n${jsonText(message as JsonRpcMessage, maxChars)}`;
}

// A row that opens to its messages' JSON text.
function row(title: string, details: string[]): Row {
  const shown = element('div');
  shown.className = 'wire';
  const toggle = element('button', title);
  toggle.type = 'button';
  toggle.setAttribute('aria-expanded', 'false');
  shown.append(toggle);
  const made: Row = { element: shown, title: toggle, details };
  toggle.onclick = () => {
    const open = toggle.getAttribute('aria-expanded') === 'true';
    toggle.setAttribute('aria-expanded', String(!open));
    if (open) {
      shown.querySelector('pre')?.remove();
      return;
    }
    shown.append(element('pre', made.details.join('\n\n')));
  };
  return made;
}

function cut(text: string): string {
  return text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}… (cut at ${MAX_LINE_CHARS.toLocaleString('en')} characters)` : text;
}

// The wall-clock time of a performance.now() reading, to the millisecond.
function clock(at: number): string {
  return new Date(performance.timeOrigin + at).toISOString().slice(11, 23);
}
