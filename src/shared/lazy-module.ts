/**
 * A module loaded on first use instead of with the package: `import()` once, the same promise
 * after, and `loaded` holds the module once it is in, for synchronous callers and for callers
 * that must not spend a turn of the event loop waiting. The entry stays light for what an app
 * may never use (a transport, a validator).
 * Always import() a module of this package (a one-line re-export for a dependency, such as
 * server/transports/sdk-stdio-server.ts): the bundler makes it a chunk that the CJS build loads
 * with require(), so a CommonJS app keeps one copy of each SDK package. An import() of the
 * package itself would load its ESM copy beside the CJS one, and the SDK's classes would not
 * recognise each other's instances.
 */
export interface LazyModule<T> {
  (): Promise<T>;
  /** The module, once loaded. */
  readonly loaded: T | undefined;
}

export function lazyModule<T>(load: () => Promise<T>): LazyModule<T> {
  let pending: Promise<T> | undefined;
  let loaded: T | undefined;
  const get = () => {
    pending ??= load().then((module) => {
      loaded = module;
      return module;
    });
    return pending;
  };
  return Object.defineProperty(get, 'loaded', { get: () => loaded }) as LazyModule<T>;
}
