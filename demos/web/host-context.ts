// What the page tells a view about where it is shown (the MCP Apps host
// context): the page's theme, the reader's locale and time zone, the display
// mode, and the size of the view's container. renderApp sends the first value
// in its answer to ui/initialize and every later one as host-context-changed.
import { animationFrameScheduler, auditTime, BehaviorSubject, combineLatest, distinctUntilChanged, map, Observable } from 'rxjs';
import type { McpUiHostContext } from 'rxmcp/apps';

export type Theme = 'light' | 'dark';
export type DisplayMode = 'inline' | 'fullscreen';

/** The display modes the page offers a view. */
export const OFFERED_MODES: DisplayMode[] = ['inline', 'fullscreen'];

/** An inline view grows with its content up to this height (renderApp holds the frame to it); past it, it scrolls. */
export const INLINE_MAX_HEIGHT = 1200;

/** The page's theme: the reader's preference at first, then what the header's button chose. */
export const theme$ = new BehaviorSubject<Theme>(matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');

/** Binds the header's button to the theme, and the page's colours to it. */
export function bindThemeButton(button: HTMLButtonElement): void {
  theme$.subscribe((theme) => {
    document.documentElement.dataset.theme = theme;
    button.textContent = theme === 'dark' ? 'light' : 'dark';
    button.title = `switch to the ${button.textContent} theme`;
  });
  button.onclick = () => theme$.next(theme$.value === 'dark' ? 'light' : 'dark');
}

// The element's size, now and whenever it changes (the window resized, fullscreen entered).
function size$(element: HTMLElement): Observable<{ width: number; height: number }> {
  return new Observable<{ width: number; height: number }>((subscriber) => {
    const emit = () => subscriber.next({ width: Math.round(element.clientWidth), height: Math.round(element.clientHeight) });
    const observer = new ResizeObserver(emit);
    observer.observe(element);
    emit();
    return () => observer.disconnect();
  });
}

/**
 * The host context for a view shown in `container`, as it changes.
 * Inline, the width is fixed and the height may grow to a bound; in
 * fullscreen, both are what the window gives.
 */
export function hostContext$(container: HTMLElement, mode$: Observable<DisplayMode>): Observable<McpUiHostContext> {
  // A window being dragged resizes every frame: one update per frame is plenty.
  const size = size$(container).pipe(auditTime(0, animationFrameScheduler));
  return combineLatest([theme$, mode$, size]).pipe(
    map(([theme, displayMode, { width, height }]) => ({
      theme,
      displayMode,
      availableDisplayModes: OFFERED_MODES,
      containerDimensions: displayMode === 'fullscreen' ? { width, height } : { width, maxHeight: INLINE_MAX_HEIGHT },
      locale: navigator.language,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      platform: 'web' as const,
    })),
    distinctUntilChanged((a, b) => JSON.stringify(a) === JSON.stringify(b)),
  );
}
