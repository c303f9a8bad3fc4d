import { BehaviorSubject, Observable, Subject } from 'rxjs';
import type { InputRequest } from '../../protocol/input-request.js';

/** One question a server is waiting on, for a UI to show and answer. */
export interface PendingQuestion {
  /** A number unique within its broker, handy as a UI key. */
  readonly id: number;
  /** `elicitation/create`, `sampling/createMessage` or `roots/list`. */
  readonly method: string;
  /**
   * What to show: `form` (an elicitation with `requestedSchema`), `url` (an
   * elicitation that sends the person to a page: answer `{ action: 'accept' }`
   * once they agree to go; the UI opens the page, never the client),
   * `sampling` or `roots`.
   */
  readonly kind: 'form' | 'url' | 'sampling' | 'roots';
  /**
   * The question's params: for a form `message` and `requestedSchema` as the
   * server sent them; for a URL question `{ mode: 'url', message, url,
   * elicitationId }`, the URL already checked (`new URL(url).host` is the
   * host to show beside it).
   */
  readonly params: Record<string, unknown>;
  /** Which server asks (its `serverInfo` name, title and version, cleaned; a registry's prefix), when the client knows it. */
  readonly server?: InputRequest['server'];
  /** Answers with the result body (for a form: `{ action: 'accept', content }`; for a URL question: `{ action: 'accept' }`). */
  respond(result: Record<string, unknown>): void;
  /** Says no: elicitation `{ action: 'decline' }`, roots `[]`, sampling left unanswered. */
  decline(): void;
  /** Dismisses the question: elicitation `{ action: 'cancel' }`; for the others the same as `decline()`. */
  cancel(): void;
}

// The kind of a question by its method; a URL question is told by the hook it came through.
const KINDS: Record<string, PendingQuestion['kind']> = Object.assign(Object.create(null) as Record<string, PendingQuestion['kind']>, {
  'elicitation/create': 'form',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
});

/** Options of `InputBroker`. */
export interface InputBrokerOptions {
  /** Called when a question is answered twice, or after its call was cancelled. */
  onWarn?: (message: string) => void;
}

/**
 * Turns server questions into a stream a reactive UI binds to, instead of
 * callbacks it has to implement.
 *
 * Pass the broker's hooks to a client; each question a server asks appears
 * on `questions$` (hot) and in `pending$` (the list still waiting, replayed
 * to new subscribers) until it is answered or its call goes away. Answering
 * twice, or after the call was cancelled, is a no-op reported through `onWarn`.
 *
 * @example
 * ```ts
 * const broker = new InputBroker();
 * const mcp = McpClient.connectStdio({ command: 'srv', onElicit: broker.onElicit, onElicitUrl: broker.onElicitUrl });
 * broker.questions$.subscribe((question) => {
 *   if (question.kind === 'url') {
 *     const go = confirm(`${question.params.message}\n${new URL(String(question.params.url)).host}`);
 *     if (go) window.open(String(question.params.url), '_blank', 'noopener');
 *     return go ? question.respond({ action: 'accept' }) : question.decline();
 *   }
 *   const ok = confirm(String(question.params.message));
 *   if (ok) question.respond({ action: 'accept', content: { confirm: true } });
 *   else question.decline();
 * });
 * ```
 */
export class InputBroker {
  private readonly asked = new Subject<PendingQuestion>();
  private readonly waiting = new BehaviorSubject<readonly PendingQuestion[]>([]);
  private readonly warn: (message: string) => void;
  private nextId = 1;

  /** Every new question, hot: subscribers see the questions asked after they subscribe. */
  readonly questions$: Observable<PendingQuestion> = this.asked.asObservable();

  /** The questions still waiting for an answer; a new subscriber gets the current list at once. */
  readonly pending$: Observable<readonly PendingQuestion[]> = this.waiting.asObservable();

  /** An `onElicit` hook that routes elicitation questions through this broker. */
  readonly onElicit = (request: InputRequest): Observable<Record<string, unknown> | undefined> => this.ask(request);
  /** An `onElicitUrl` hook that routes URL questions through this broker (as `kind: 'url'`). */
  readonly onElicitUrl = (request: InputRequest): Observable<Record<string, unknown> | undefined> => this.ask(request, 'url');
  /** An `onSample` hook that routes sampling requests through this broker. */
  readonly onSample = (request: InputRequest): Observable<Record<string, unknown> | undefined> => this.ask(request);
  /** An `onListRoots` hook that routes roots listings through this broker. */
  readonly onListRoots = (request: InputRequest): Observable<Record<string, unknown> | undefined> => this.ask(request);

  constructor(options: InputBrokerOptions = {}) {
    this.warn = options.onWarn ?? (() => undefined);
  }

  private ask(request: InputRequest, mode?: 'url'): Observable<Record<string, unknown> | undefined> {
    return new Observable<Record<string, unknown> | undefined>((subscriber) => {
      const id = this.nextId++;
      let open = true;
      const settle = (verb: string, answer: Record<string, unknown> | undefined): void => {
        if (!open) {
          this.warn(`question ${id} (${request.method}) was not ${verb}: it is no longer pending`);
          return;
        }
        subscriber.next(answer);
        subscriber.complete();
      };
      const elicitation = request.method === 'elicitation/create';
      const no = (action: 'decline' | 'cancel'): Record<string, unknown> | undefined =>
        elicitation ? { action } : request.method === 'roots/list' ? { roots: [] } : undefined;
      const question: PendingQuestion = {
        id,
        method: request.method,
        kind: mode ?? KINDS[request.method] ?? 'form',
        params: request.params,
        ...(request.server === undefined ? {} : { server: request.server }),
        respond: (result) => settle('answered', result),
        decline: () => settle('declined', no('decline')),
        cancel: () => settle('cancelled', no('cancel')),
      };
      this.waiting.next([...this.waiting.value, question]);
      this.asked.next(question);
      // Runs when the question is answered and when its call goes away first.
      return () => {
        open = false;
        this.waiting.next(this.waiting.value.filter((pending) => pending !== question));
      };
    });
  }
}
