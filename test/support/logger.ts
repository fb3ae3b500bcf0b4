/** A Mastra logger that keeps the warnings and errors it is given, for tests that check what a server logged. */
import { MastraLogger } from '@mastra/core/logger';

export class RecordingLogger extends MastraLogger {
  readonly warnings: string[] = [];
  readonly errors: string[] = [];
  debug() {}
  info() {}
  warn(message: string) {
    this.warnings.push(message);
  }
  /** The message with every argument after it (an Error as its stack). */
  error(message: string, ...args: unknown[]) {
    this.errors.push(
      [message, ...args.map((arg) => (arg instanceof Error ? arg.stack : String(arg)))].join(' '),
    );
  }
}
