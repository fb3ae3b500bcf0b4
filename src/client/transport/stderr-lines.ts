/**
 * A stdio server's stderr, line by line, where its `stderr` option sends it: by default each line
 * is a log record for the client's logger and the server's `logger` (a line that says it is a
 * warning or an error, and the stack lines under it, at that level, so the default logger shows
 * them); `'inherit'` writes it to this process's stderr as it comes; `'ignore'` drops it; a
 * function gets each line. Whatever the option, the last lines are kept (bounded, in count and
 * length) for the report of a server that dies before answering (stdio-exit.ts). A line longer
 * than MAX_LINE is cut there: a child that never writes a newline holds no more than that.
 */
import { StringDecoder } from 'node:string_decoder';
import type { LoggingLevel } from '@modelcontextprotocol/client';
import type { LogHandler, StdioServerDefinition } from '../types.js';

/** Characters of one line delivered or kept; the rest of it is dropped. */
const MAX_LINE = 8192;
/** Lines kept for a crash report, and the characters kept of each. */
const TAIL_LINES = 64;
const TAIL_LINE = 1000;

/** Lines that name their level: `ERROR`, `[warn]`, `WARNING:root:`, `TypeError: …`, Node's `(node:12) Warning:`. */
const ERROR_LINE =
  /^.{0,60}?(?:\b(?:ERROR|FATAL|CRITICAL)\b|\[(?:[Ee]rror|[Ff]atal|[Cc]ritical)\])|^(?:error|fatal|critical):|^\w*(?:Error|Exception)(?: \[\w+\])?: |^Traceback \(most recent call last\)/;
const WARNING_LINE =
  /^.{0,60}?(?:\bWARN(?:ING)?\b|\[[Ww]arn(?:ing)?\])|^warn(?:ing)?:|^\(node:\d+\) \[?\w*Warning/;

type StderrOption = NonNullable<StdioServerDefinition['stderr']>;

export class StderrLines {
  /** A character split between two chunks is decoded once both arrived. */
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';
  private overflowing = false;
  private readonly kept: string[] = [];
  /** The level of the last record: indented lines under an error (its stack) share it. */
  private level: LoggingLevel = 'info';

  constructor(
    private readonly serverName: string,
    private readonly option: StderrOption | undefined,
    private readonly log: LogHandler,
  ) {}

  /** The last lines the server wrote, oldest first. */
  get tail(): readonly string[] {
    return this.kept;
  }

  write(chunk: Buffer | string): void {
    if (this.option === 'inherit') process.stderr.write(chunk);
    const text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      this.append(text.slice(start, newline));
      this.flush();
      start = newline + 1;
    }
    this.append(text.slice(start));
  }

  /** The stream ended: a last line without a newline still counts. */
  end(): void {
    this.append(this.decoder.end());
    this.flush();
  }

  private append(part: string): void {
    if (this.overflowing) return;
    const room = MAX_LINE - this.pending.length;
    this.pending += part.slice(0, room);
    if (part.length > room) this.overflowing = true;
  }

  private flush(): void {
    const line = (this.overflowing ? `${this.pending}…` : this.pending).replace(/\r$/, '');
    this.pending = '';
    this.overflowing = false;
    if (!line.trim()) return;
    this.kept.push(line.length > TAIL_LINE ? `${line.slice(0, TAIL_LINE)}…` : line);
    if (this.kept.length > TAIL_LINES) this.kept.shift();
    this.deliver(line);
  }

  private deliver(line: string): void {
    const { option } = this;
    if (option === 'inherit' || option === 'ignore') return;
    if (typeof option === 'function') {
      try {
        option(line);
      } catch {
        // The application's line handler must not take the connection down.
      }
      return;
    }
    this.level = /^\s/.test(line) && this.level !== 'info' ? this.level : levelOf(line);
    this.log({
      level: this.level,
      message: line,
      timestamp: new Date(),
      serverName: this.serverName,
      details: { stream: 'stderr' },
    });
  }
}

function levelOf(line: string): LoggingLevel {
  if (ERROR_LINE.test(line)) return 'error';
  if (WARNING_LINE.test(line)) return 'warning';
  return 'info';
}
