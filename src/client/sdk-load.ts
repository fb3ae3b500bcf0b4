/**
 * The SDK's client entry loads with the first connect (shared/lazy-module.ts), not with the
 * package: a process that imports `mastra-mcp` to serve, or has not connected yet, does not pay
 * for it (about 50 ms on a 2-vCPU machine). What the client uses before that (the errors it
 * raises, wire schemas, constants) it takes from the SDK's server entry, which the package loads
 * anyway: the SDK brands its errors, so `instanceof` holds across the two copies.
 */
import { lazyModule } from '../shared/lazy-module.js';

export const loadSdkClient = lazyModule(() => import('./sdk-runtime.js'));

type SdkClientRuntime = Awaited<ReturnType<typeof loadSdkClient>>;
type ClientOnlyError = 'SseError' | 'UnauthorizedError' | 'InsufficientScopeError';

/**
 * `value` is an error of the SDK client's class `name`, which its server entry does not have.
 * Before the SDK client has loaded, nothing can have raised one.
 */
export function isSdkClientError<N extends ClientOnlyError>(
  value: unknown,
  name: N,
): value is InstanceType<SdkClientRuntime[N]> {
  const sdk = loadSdkClient.loaded;
  return sdk !== undefined && value instanceof sdk[name];
}
