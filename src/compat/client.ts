/**
 * The public MCPClient: the core client (client/client.ts) plus what only older reference pages
 * ask of it: a constructor that returns the live client of an `id` with the same configuration
 * (instances.ts), and `elicitation.onRequest()` (elicitation.ts).
 */
import { connectionLookup, MCPClientCore } from '../client/client.js';
import type { MCPClientConfigOptions, MCPConfig } from '../client/config-file/types.js';
import type { MCPClientOptions } from '../client/types.js';
import { elicitationActions, type MCPClientElicitation } from './elicitation.js';
import { claimInstance, liveInstance, releaseInstance } from './instances.js';

export class MCPClient<TServers = never> extends MCPClientCore<TServers> {
  readonly elicitation!: MCPClientElicitation;

  // biome-ignore lint/correctness/noUnreachableSuper: a cached return builds nothing (a derived constructor may return an object before super())
  constructor(options: MCPClientOptions<NoInfer<TServers>>) {
    const live = liveInstance(options as MCPClientOptions);
    // biome-ignore lint/correctness/noConstructorReturn: the documented instance cache returns the live client
    if (live) return live as MCPClient<TServers>;
    super(options);
    claimInstance(this);
    this.elicitation = elicitationActions(connectionLookup(this));
  }

  static override async fromConfig<TServers = never>(
    config: string | URL | MCPConfig,
    options: MCPClientConfigOptions<NoInfer<TServers>> = {},
  ): Promise<MCPClient<TServers>> {
    // biome-ignore lint/complexity/noThisInStatic: super's fromConfig builds `new this`, so this class
    return (await super.fromConfig<TServers>(config, options)) as MCPClient<TServers>;
  }

  /** Frees the instance slot at once, then closes as the core client does. */
  override async disconnect(): Promise<void> {
    releaseInstance(this);
    await super.disconnect();
  }
}
