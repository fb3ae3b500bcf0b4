/**
 * A module loaded on first use instead of with the package: `import()` once, the same promise
 * after. The entry stays light for what an app may never use (a transport, a validator).
 * Always import() a module of this package (a one-line re-export for a dependency, such as
 * server/transports/sdk-stdio-server.ts): the bundler makes it a chunk that the CJS build loads
 * with require(), so a CommonJS app keeps one copy of each SDK package. An import() of the
 * package itself would load its ESM copy beside the CJS one, and the SDK's classes would not
 * recognise each other's instances.
 */
export function lazyModule<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load();
    return loaded;
  };
}
