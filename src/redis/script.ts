/**
 * A Lua script run by SHA (EVALSHA), sent in full (EVAL) only when Redis does not have it cached,
 * which is the case after every Redis restart. Both attempts share one deadline, so a script is
 * bounded exactly like a single command (see command.ts).
 */
import { createHash } from 'node:crypto';
import { type RedisCommandClient, withDeadline } from './command.js';
import type { RedisOperation } from './errors.js';

export class RedisScript {
  private readonly sha: string;

  constructor(private readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  run(
    client: RedisCommandClient,
    keys: string[],
    args: string[],
    subject: RedisOperation,
    timeoutMs: number,
  ): Promise<unknown> {
    const tail = [String(keys.length), ...keys, ...args];
    return withDeadline(
      async (abortSignal) => {
        try {
          return await client.sendCommand(['EVALSHA', this.sha, ...tail], { abortSignal });
        } catch (error) {
          if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
          return client.sendCommand(['EVAL', this.source, ...tail], { abortSignal });
        }
      },
      client,
      subject,
      timeoutMs,
    );
  }
}
