/**
 * A list on the page that keeps its last `max` rows. Rows are queued and
 * put on the page once per animation frame, so a server sending 10,000
 * notifications in a burst costs the page the rows it shows, not one layout
 * per message.
 */
export class BoundedList {
  private queued: Array<() => HTMLElement> = [];
  private scheduled = false;

  constructor(
    private readonly list: HTMLElement,
    private readonly max: number,
  ) {}

  /** Queues a row; `make` runs only if the row is still among the last `max` when the frame comes. */
  push(make: () => HTMLElement): void {
    this.queued.push(make);
    if (this.queued.length > this.max) this.queued.splice(0, this.queued.length - this.max);
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => this.flush());
  }

  /** Drops every row, shown and queued. */
  clear(): void {
    this.queued = [];
    this.list.replaceChildren();
  }

  private flush(): void {
    this.scheduled = false;
    const follow = this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 4;
    this.list.append(...this.queued.map((make) => make()));
    this.queued = [];
    while (this.list.childElementCount > this.max) this.list.firstElementChild?.remove();
    // Keeps the newest in view, unless the person scrolled up to read.
    if (follow) this.list.scrollTop = this.list.scrollHeight;
  }
}
