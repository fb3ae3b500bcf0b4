/**
 * Puts a screen between a transport and whatever handler the SDK assigns to `onmessage`, keeping
 * any screen installed before (the tool-list guard, the task-result guard): each sees the message
 * the previous one passed on.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

export function interceptIncoming<T extends Transport>(
  transport: T,
  screen: (message: JSONRPCMessage) => JSONRPCMessage,
): T {
  const previous = Object.getOwnPropertyDescriptor(transport, 'onmessage');
  let handler: Transport['onmessage'];
  const install = (next: Transport['onmessage']) => {
    handler = next && ((message, extra) => next(screen(message), extra));
    if (previous?.set) previous.set.call(transport, handler);
  };
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => (previous?.get ? previous.get.call(transport) : handler),
    set: install,
  });
  return transport;
}
