/**
 * The set of published tools: explicit tools, then agents as `ask_<key>`, then workflows as
 * `run_<key>` (and `resume_<key>`, workflow-tools.ts). Explicit tools always win a name; a derived
 * name that collides is skipped with a warning (a workflow whose `run_` is skipped is skipped
 * whole). The `tools/list` result is cached until the set changes.
 */
import type { Agent } from '@mastra/core/agent';
import type { IMastraLogger } from '@mastra/core/logger';
import type { Workflow } from '@mastra/core/workflows';
import type { Tool as WireTool } from '@modelcontextprotocol/server';
import { agentEntry, type ToolEntry, toolEntry } from './tool-entry.js';
import { workflowEntries } from './workflow-tools.js';

export interface RegistrySources {
  tools?: Record<string, unknown>;
  agents?: Record<string, Agent> | undefined;
  workflows?: Record<string, Workflow> | undefined;
}

export class ToolRegistry {
  private readonly entries = new Map<string, ToolEntry>();
  private listCache: WireTool[] | undefined;

  constructor(
    sources: RegistrySources,
    /** Read at each use: a Mastra instance replaces the server's logger after construction. */
    private readonly logger: () => IMastraLogger,
  ) {
    for (const [key, tool] of Object.entries(sources.tools ?? {}))
      this.entries.set(key, toolEntry(key, tool));
    for (const [key, agent] of Object.entries(sources.agents ?? {}))
      this.addDerived(agentEntry(key, agent), 'Agent', key);
    for (const [key, workflow] of Object.entries(sources.workflows ?? {})) {
      const [run, ...more] = workflowEntries(key, workflow);
      if (run && this.addDerived(run, 'Workflow', key))
        for (const entry of more) this.addDerived(entry, 'Workflow', key);
    }
  }

  /** Adds `entry` unless its name is taken; whether it was added. */
  private addDerived(entry: ToolEntry, label: string, key: string): boolean {
    const existing = this.entries.get(entry.name);
    if (existing) {
      const winner =
        existing.kind === 'tool' ? 'an explicitly defined tool' : `a derived ${existing.kind} tool`;
      this.logger().warn(
        `${label} '${key}' would be exposed as tool '${entry.name}', which is already ${winner}; skipping the ${label.toLowerCase()}`,
      );
      return false;
    }
    this.entries.set(entry.name, entry);
    return true;
  }

  get(name: string): ToolEntry | undefined {
    return this.entries.get(name);
  }

  values(): IterableIterator<ToolEntry> {
    return this.entries.values();
  }

  /** Adds or replaces explicit tools by key; converts them all before changing anything. */
  add(tools: Record<string, unknown>): WireTool[] {
    const converted = Object.entries(tools).map(([key, tool]) => toolEntry(key, tool));
    for (const entry of converted) this.entries.set(entry.name, entry);
    this.listCache = undefined;
    return converted.map((entry) => entry.definition);
  }

  /** Removes tools by name; returns the names that were present. */
  remove(names: string[]): string[] {
    const removed = names.filter((name) => this.entries.delete(name));
    if (removed.length > 0) this.listCache = undefined;
    return removed;
  }

  /** The explicit tools as given, by name (what MCPServerBase and the Mastra registry know as its tools). */
  explicitTools(): Record<string, unknown> {
    const tools: Record<string, unknown> = {};
    for (const entry of this.entries.values()) if (entry.kind === 'tool') tools[entry.name] = entry.source;
    return tools;
  }

  list(): WireTool[] {
    this.listCache ??= [...this.entries.values()].map((entry) => entry.definition);
    return this.listCache;
  }
}
