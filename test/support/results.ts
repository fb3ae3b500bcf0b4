/** Reading outcomes in tests: what a promise rejected with, the text of a tool result. */

/** What `promise` rejected with, or undefined when it resolved. */
export function rejectionOf(promise: Promise<unknown>): Promise<unknown>;
/** What `promise` rejected with; fails the test when it resolved or rejected with anything but a `type`. */
export function rejectionOf<E>(
  promise: Promise<unknown>,
  type: abstract new (...args: never[]) => E,
): Promise<E>;
export async function rejectionOf<E>(
  promise: Promise<unknown>,
  type?: abstract new (...args: never[]) => E,
): Promise<unknown> {
  const outcome = await promise.then(
    () => ({ rejected: false as const }),
    (reason: unknown) => ({ rejected: true as const, reason }),
  );
  if (!type) return outcome.rejected ? outcome.reason : undefined;
  if (!outcome.rejected) throw new Error(`expected a rejection with a ${type.name}`);
  if (outcome.reason instanceof type) return outcome.reason;
  throw new Error(`expected a ${type.name}, got ${String(outcome.reason)}`);
}

/** What `call` threw; fails the test when it returned. */
export function thrownBy<E = Error>(call: () => unknown): E {
  try {
    call();
  } catch (error) {
    return error as E;
  }
  throw new Error('expected the call to throw');
}

/** The text blocks of a tool result's content, one per line. */
export function textOf(result: unknown): string {
  const content = ((result as { content?: unknown }).content ?? []) as Array<{ type: string; text?: string }>;
  return content
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}
