/**
 * How `ask_<agent>` asks its agent. Called directly it answers with `agent.generate()`, as the
 * MCPServer reference says. Run as a task it streams, so what the agent has written so far is the
 * task's status message; turning tasks on never changes what the agent needs, though: a model
 * that cannot stream (the stream fails before any output, as the AI SDK mocks without `doStream`
 * do) is asked again with `generate()`, and that agent answers with `generate()` from then on.
 */
import type { Agent } from '@mastra/core/agent';
import type { ToolInvocation } from './tool-invocation.js';
import type { MCPToolContext } from './types.js';

/** How often a streaming agent's text so far is written to its task's status message. */
const STATUS_INTERVAL_MS = 250;
/** How much of the agent's latest text the status message shows. */
const STATUS_TEXT_LENGTH = 200;

/** Stream chunks that frame a step rather than carry what the model produced. */
const FRAMING_CHUNKS: ReadonlySet<string> = new Set([
  'start',
  'step-start',
  'step-finish',
  'finish',
  'error',
  'abort',
]);

/** Agents whose model failed to stream where `generate()` then answered: asked with `generate()` only. */
const cannotStream = new WeakSet<Agent>();

/** The stream failed before the model produced anything: nothing ran that asking again would repeat. */
const NOTHING_STREAMED = Symbol('nothing streamed');

/** What the agent is called with, streamed or not. */
function optionsOf(invocation: ToolInvocation) {
  return {
    requestContext: invocation.requestContext,
    ...(invocation.signal ? { abortSignal: invocation.signal } : {}),
    ...(invocation.tracingContext ? { tracingContext: invocation.tracingContext } : {}),
  };
}

async function streamAnswer(
  agent: Agent,
  message: string,
  options: ReturnType<typeof optionsOf>,
  progress: MCPToolContext['progress'],
): Promise<unknown> {
  const output = await agent.stream(message, options);
  let text = '';
  let produced = false;
  let reported = 0;
  for await (const chunk of output.fullStream) {
    const { type, payload } = chunk as { type: string; payload?: { text?: unknown } };
    if (!FRAMING_CHUNKS.has(type)) produced = true;
    if (type !== 'text-delta' || typeof payload?.text !== 'string') continue;
    text += payload.text;
    if (Date.now() - reported < STATUS_INTERVAL_MS) continue;
    reported = Date.now();
    const latest = text.length > STATUS_TEXT_LENGTH ? `…${text.slice(-STATUS_TEXT_LENGTH)}` : text;
    await progress({ progress: text.length, message: `${agent.name} is answering: ${latest}` });
  }
  // What generate() answers: the same full output, its error thrown.
  const full = await output.getFullOutput().catch((error: unknown) => ({ error }));
  if (!full.error) return full;
  if (!produced && !options.abortSignal?.aborted) return NOTHING_STREAMED;
  throw full.error;
}

export async function askAgent(agent: Agent, message: string, invocation: ToolInvocation): Promise<unknown> {
  const options = optionsOf(invocation);
  const progress = invocation.mcp?.progress;
  if (!invocation.task || !progress || cannotStream.has(agent)) return await agent.generate(message, options);
  const streamed = await streamAnswer(agent, message, options, progress);
  if (streamed !== NOTHING_STREAMED) return streamed;
  const answer = await agent.generate(message, options);
  cannotStream.add(agent);
  return answer;
}
