/**
 * Mastra's ConsoleLogger, reached without `@mastra/core/logger`: that entry also loads Mastra's
 * tracing helpers, whose import builds zod schemas for 20-30 ms of a process's start (a stdio
 * server's first answer waits for it). `@mastra/core/base` is light, and its MastraBase logs with
 * that same ConsoleLogger class, so the class is taken from an instance's logger.
 */
import { MastraBase } from '@mastra/core/base';
import type { ConsoleLogger, IMastraLogger, LogLevel } from '@mastra/core/logger';

/** Reads the logger MastraBase builds (a protected member). */
class LoggerSource extends MastraBase {
  consoleLoggerClass(): typeof ConsoleLogger {
    return this.logger.constructor as typeof ConsoleLogger;
  }
}

let Console: typeof ConsoleLogger | undefined;

/** A ConsoleLogger named `name`, at `level` (`error` by default, as Mastra's). */
export function consoleLogger(name: string, level?: `${LogLevel}`): IMastraLogger {
  Console ??= new LoggerSource({ name }).consoleLoggerClass();
  return new Console({ name, ...(level ? { level: level as LogLevel } : {}) });
}
