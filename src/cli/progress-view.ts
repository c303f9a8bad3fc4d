import type { ProgressEvent, Task } from '../index.js';
import { terminalLine } from './terminal-text.js';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const WIDTH = 24;

/**
 * Shows a call's progress on a stream (stderr, so that stdout stays clean):
 * on a terminal a live bar (percent when the total is known, a spinner
 * otherwise) redrawn in place; elsewhere one plain line per report.
 */
export class ProgressView {
  private frame = 0;
  private drawn = false;

  constructor(private readonly stream: NodeJS.WritableStream & { isTTY?: boolean }) {}

  update(event: ProgressEvent): void {
    const { progress, total } = event;
    // The message is the server's: one line, nothing in it the terminal obeys.
    const message = event.message ? ` ${terminalLine(event.message)}` : '';
    if (!this.stream.isTTY) {
      this.stream.write(`progress ${progress}${total === undefined ? '' : `/${total}`}${message}\n`);
      return;
    }
    let line: string;
    if (total !== undefined && total > 0) {
      const share = Math.max(0, Math.min(1, progress / total));
      const filled = Math.round(share * WIDTH);
      line = `[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${String(Math.round(share * 100)).padStart(3)}%`;
    } else {
      line = `${SPINNER[this.frame++ % SPINNER.length]} ${progress}`;
    }
    this.stream.write(`\r\x1b[K${line}${message}`);
    this.drawn = true;
  }

  /** Shows where a task stands: its status and the server's message about it. */
  status({ taskId, status, statusMessage }: Task): void {
    const line = terminalLine(`task ${taskId} ${status}${statusMessage ? `: ${statusMessage}` : ''}`);
    if (!this.stream.isTTY) {
      this.stream.write(`${line}\n`);
      return;
    }
    this.stream.write(`\r\x1b[K${SPINNER[this.frame++ % SPINNER.length]} ${line}`);
    this.drawn = true;
  }

  /** Clears the bar, leaving the terminal line empty. */
  done(): void {
    if (this.drawn) this.stream.write('\r\x1b[K');
    this.drawn = false;
  }
}
