/**
 * What the Bun and Deno examples of this folder use of those runtimes' globals, so that they
 * compile here without either runtime's type packages.
 */
declare const Bun: {
  serve(options: {
    port: number;
    hostname: string;
    idleTimeout?: number;
    fetch: (request: Request) => Promise<Response>;
  }): { url: URL; port: number };
};

declare const Deno: {
  serve(
    options: { port: number; hostname: string },
    handler: (request: Request) => Promise<Response>,
  ): unknown;
  env: { get(name: string): string | undefined };
};
