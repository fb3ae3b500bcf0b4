/**
 * A module loaded on first use instead of with the package: `import()` once, the same promise
 * after. The entry stays light for what an app may never use (a transport, a validator).
 */
export function lazyModule<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load();
    return loaded;
  };
}
