import { catchError, debounceTime, filter, fromEvent, map, merge, of, type Subscription, switchMap } from 'rxjs';
import type { CompleteResult, CompletionReference, McpClient } from 'rxmcp';
import { element } from './element.js';

/** The most suggestions shown under a field (the spec lets a server send 100 at a time). */
export const MAX_SUGGESTIONS = 20;
/** How long typing pauses before the server is asked, in milliseconds. */
const PAUSE_MS = 200;

/** A text field, its suggestions, and the completion that feeds them (unsubscribe it with the form). */
export interface CompletionField {
  input: HTMLInputElement;
  /** The field and its suggestions, to put in the form. */
  view: HTMLElement;
  completing: Subscription | undefined;
}

/**
 * A text field named `name` that, when `ask` is set (the server declared
 * `completions`), asks the server for values as it is typed in or focused empty
 * (`completion/complete` for `ref`, once typing pauses; an answer that comes
 * after the next question is dropped) and shows them below as buttons that
 * fill it in. The values are the server's: shown as text, at most
 * `MAX_SUGGESTIONS`, with a line saying how many more there are.
 *
 * @param others the form's other values, sent as the completion's context
 */
export function completionField(mcp: McpClient, ref: CompletionReference, name: string, ask: boolean, others: () => Record<string, string>): CompletionField {
  const input = element('input');
  input.type = 'text';
  input.name = name;
  input.autocomplete = 'off';
  const suggestions = element('div');
  suggestions.className = 'suggestions';
  suggestions.setAttribute('aria-live', 'polite');
  const view = element('div');
  view.append(input, suggestions);
  if (!ask) return { input, view, completing: undefined };
  // Focus asks only for an empty field: one just filled from a suggestion has its answer.
  const completing = merge(fromEvent(input, 'input'), fromEvent(input, 'focus').pipe(filter(() => input.value === '')))
    .pipe(
      debounceTime(PAUSE_MS),
      map(() => input.value),
      switchMap((value) =>
        mcp.complete(ref, { name, value }, { context: { arguments: others() } }).pipe(catchError((error: Error) => of(error))),
      ),
    )
    .subscribe((answer) => show(answer));
  return { input, view, completing };

  function show(answer: CompleteResult | Error): void {
    if (answer instanceof Error) {
      suggestions.replaceChildren(element('small', `no completion: ${answer.message}`));
      return;
    }
    const { values, total, hasMore } = answer.completion;
    const shown = values.slice(0, MAX_SUGGESTIONS).map((value) => {
      const button = element('button', value);
      button.type = 'button';
      button.className = 'suggestion';
      button.onclick = () => {
        input.value = value;
        suggestions.replaceChildren();
        input.focus({ preventScroll: true });
      };
      return button;
    });
    const more = Math.max(values.length, typeof total === 'number' && Number.isFinite(total) ? total : 0) - shown.length;
    const rest = more > 0 ? [element('small', `${more} more`)] : hasMore === true ? [element('small', 'more on the server: type to narrow')] : [];
    suggestions.replaceChildren(...shown, ...rest);
  }
}
