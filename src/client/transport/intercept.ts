/**
 * Puts a screen between a transport and whatever handler the SDK assigns to `onmessage`, keeping
 * any screen installed before (the tool-list guard, the task-result guard): each sees the message
 * the previous one passed on. `observeErrors` does the same for `onerror`, looking only.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

/** Wraps the handler later assigned to `transport[key]` with `wrap`, keeping an accessor defined before. */
function interceptHandler<T extends Transport, K extends 'onmessage' | 'onerror'>(
  transport: T,
  key: K,
  wrap: (next: NonNullable<Transport[K]>) => Transport[K],
): T {
  const previous = Object.getOwnPropertyDescriptor(transport, key);
  let handler: Transport[K];
  const install = (next: Transport[K]) => {
    handler = next && wrap(next);
    if (previous?.set) previous.set.call(transport, handler);
  };
  Object.defineProperty(transport, key, {
    configurable: true,
    enumerable: true,
    get: () => (previous?.get ? previous.get.call(transport) : handler),
    set: install,
  });
  return transport;
}

export function interceptIncoming<T extends Transport>(
  transport: T,
  screen: (message: JSONRPCMessage) => JSONRPCMessage,
): T {
  return interceptHandler(transport, 'onmessage', (next) => (message, extra) => next(screen(message), extra));
}

/** Calls `observe` with every error the transport reports, before the handler the SDK assigned. */
export function observeErrors<T extends Transport>(transport: T, observe: (error: Error) => void): T {
  return interceptHandler(transport, 'onerror', (next) => (error) => {
    observe(error);
    next(error);
  });
}
