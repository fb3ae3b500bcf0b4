/**
 * TasksService (src/server/tasks/service.ts) driven directly: which call becomes a task, a task
 * stored before it is answered and finished by its work, the per-server and per-principal
 * budgets, a failing store answered without its words, an orphan reported failed, close(); and
 * through an in-process MCPServer, another principal's task answered exactly as an unknown one.
 */
import { createTool } from '@mastra/core/tools';
import { ProtocolError, type ServerContext } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InMemoryMCPTaskStore, MCPServer, type MCPServerTasksConfig } from '../../src/index.js';
import type { TaskListenRequest } from '../../src/server/tasks/listen.js';
import { TASKS_FULL_CODE, TasksService } from '../../src/server/tasks/service.js';
import type { TaskRun } from '../../src/server/tasks/task-run.js';
import type { MCPStoredTask } from '../../src/server/tasks/types.js';
import { CLIENT_CAPABILITIES_META_KEY, TASKS_EXTENSION_ID } from '../../src/shared/tasks-wire.js';
import { inProcessClient } from '../support/in-process.js';
import { RecordingLogger } from '../support/logger.js';
import { rejectionOf } from '../support/results.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const DECLARED = { extensions: { [TASKS_EXTENSION_ID]: {} } };

/** The fields of the SDK's handler context TasksService reads: the envelope, and a principal when given. */
function context(declared = true, subject?: string): ServerContext {
  return {
    mcpReq: { envelope: declared ? { [CLIENT_CAPABILITIES_META_KEY]: DECLARED } : {} },
    ...(subject ? { http: { authInfo: { token: 't', clientId: 'c', scopes: [], extra: { subject } } } } : {}),
  } as unknown as ServerContext;
}

function service(config: MCPServerTasksConfig = {}) {
  const logger = new RecordingLogger();
  const tasks = new TasksService(config, 'instance-1', () => logger);
  cleanups.push(() => tasks.close());
  return { tasks, logger };
}

/** Work that runs until the test resolves its gate. */
function gated() {
  let release: (result: Record<string, unknown>) => void = () => {};
  const result = new Promise<Record<string, unknown>>((resolve) => {
    release = resolve;
  });
  const started: TaskRun[] = [];
  const work = (run: TaskRun) => {
    started.push(run);
    return result;
  };
  return { work, release: (value: Record<string, unknown>) => release(value), started };
}

async function settled(tasks: TasksService, taskId: string): Promise<MCPStoredTask | undefined> {
  // The store's watch tells of each change; wait for one that ends the task.
  for (;;) {
    const task = await tasks.store.get(taskId);
    if (task && task.status !== 'working') return task;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('TasksService: which calls become tasks', () => {
  it('follows tasks.tools, else the tool, else optional for derived tools only', () => {
    const { tasks } = service({ tools: { slow: 'required', quick: { support: 'forbidden' } } });
    expect(tasks.supportOf('slow', false)).toBe('required');
    expect(tasks.supportOf('quick', true, 'optional')).toBe('forbidden');
    expect(tasks.supportOf('own', false, 'optional')).toBe('optional');
    expect(tasks.supportOf('run_flow', true)).toBe('optional');
    expect(tasks.supportOf('plain', false)).toBe('forbidden');
  });

  it('runs as a task only for a request that declared the extension; a required one refuses others with -32021', () => {
    const { tasks } = service();
    expect(tasks.runsAsTask(context(true), 'optional', 'x')).toBe(true);
    expect(tasks.runsAsTask(context(false), 'optional', 'x')).toBe(false);
    expect(tasks.runsAsTask(context(true), 'forbidden', 'x')).toBe(false);
    let refused: unknown;
    try {
      tasks.runsAsTask(context(false), 'required', 'slow');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ProtocolError);
    expect(refused).toMatchObject({ code: -32021 });
    expect((refused as Error).message).toContain("tool 'slow' runs only as a task");
  });

  it('refuses a tasks.tools entry that is no support level, naming it', () => {
    expect(
      () => new TasksService({ tools: { x: 'sometimes' as never } }, 'i', () => new RecordingLogger()),
    ).toThrow(/tools\.x must be 'forbidden', 'optional' or 'required'/);
  });

  it('is disabled without a config: nothing is a task', () => {
    const tasks = new TasksService(undefined, 'i', () => new RecordingLogger());
    cleanups.push(() => tasks.close());
    expect(tasks.enabled).toBe(false);
    expect(tasks.supportOf('any', true, 'required')).toBe('forbidden');
  });
});

describe('TasksService: a task', () => {
  it('is stored before it is answered, then finished by its work', async () => {
    const { tasks } = service({ pollIntervalMs: 250 });
    const gate = gated();
    const created = await tasks.start(context(), 'slow', gate.work);
    expect(created).toMatchObject({ resultType: 'task', status: 'working', pollIntervalMs: 250 });
    expect(created).not.toHaveProperty('toolName');
    const taskId = created.taskId as string;
    expect(await tasks.store.get(taskId)).toMatchObject({
      status: 'working',
      toolName: 'slow',
      instanceId: 'instance-1',
    });
    expect(tasks.running).toBe(1);
    gate.release({ content: [{ type: 'text', text: 'done' }] });
    expect(await settled(tasks, taskId)).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'done' }], resultType: 'complete' },
    });
    expect(tasks.running).toBe(0);
  });

  it('fails with the error its work threw', async () => {
    const { tasks } = service();
    const created = await tasks.start(context(), 'slow', () => Promise.reject(new Error('no disk')));
    expect(await settled(tasks, created.taskId as string)).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: 'no disk' },
    });
  });

  it('keeps the budgets: per principal (anonymous callers share one), then per server', async () => {
    const { tasks } = service({ maxTasks: 3, maxTasksPerPrincipal: 2 });
    const gate = gated();
    await tasks.start(context(true, 'alice'), 'slow', gate.work);
    await tasks.start(context(true, 'alice'), 'slow', gate.work);
    const perPrincipal = await rejectionOf(tasks.start(context(true, 'alice'), 'slow', gate.work));
    expect(perPrincipal).toMatchObject({
      code: TASKS_FULL_CODE,
      message:
        "Tool 'slow' cannot start a task: 2 tasks of this caller are already running (tasks.maxTasksPerPrincipal); wait for one to finish or cancel one",
      data: { tool: 'slow', limit: 'maxTasksPerPrincipal' },
    });
    await tasks.start(context(true, 'bob'), 'slow', gate.work);
    expect(await rejectionOf(tasks.start(context(true, 'carol'), 'slow', gate.work))).toMatchObject({
      code: TASKS_FULL_CODE,
      data: { limit: 'maxTasks' },
    });
    gate.release({});
    await Promise.all(gate.started.map((run) => settled(tasks, run.taskId)));
    // A finished task frees its place.
    await tasks.start(context(true, 'alice'), 'slow', () => Promise.resolve({}));
  });

  it('answers -32603 when the store fails, its detail logged but not sent, and holds no place', async () => {
    class FailingStore extends InMemoryMCPTaskStore {
      override async create(): Promise<void> {
        throw new Error('READONLY redis://secret-host:6379');
      }
    }
    const { tasks, logger } = service({ store: new FailingStore(), maxTasks: 1 });
    const error = await rejectionOf(tasks.start(context(), 'slow', () => Promise.resolve({})));
    expect(error).toMatchObject({
      code: -32603,
      message: "Tool 'slow' could not start a task: the task store is unavailable; try again later",
    });
    expect((error as Error).message).not.toContain('secret-host');
    expect(logger.errors.join('\n')).toContain('READONLY redis://secret-host:6379');
    expect(tasks.running).toBe(0);
  });

  it('reports a task nobody runs any more (this instance restarted) as failed, never working', async () => {
    const { tasks } = service();
    const now = new Date().toISOString();
    await tasks.store.create({
      taskId: 'orphan',
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: null,
      toolName: 'slow',
      instanceId: 'instance-1',
    });
    const [task] = await tasks.listenable(
      { id: 1, taskIds: ['orphan'], declared: true } as TaskListenRequest,
      undefined,
    );
    expect(task).toMatchObject({
      status: 'failed',
      statusMessage: 'The server instance running this task (instance-1) stopped before the task finished',
    });
  });

  it('close() fails what still runs and refuses new tasks', async () => {
    // A store of the user's own outlives close(), so what close() left in it can be read.
    const { tasks } = service({ store: new InMemoryMCPTaskStore() });
    const gate = gated();
    const created = await tasks.start(context(), 'slow', gate.work);
    await tasks.close();
    expect(await tasks.store.get(created.taskId as string)).toMatchObject({
      status: 'failed',
      error: { message: 'The server closed before the task finished' },
    });
    expect(gate.started[0]?.signal.aborted).toBe(true);
    expect(await rejectionOf(tasks.start(context(), 'slow', gate.work))).toMatchObject({
      message: 'The server is closing',
    });
  });
});

describe('TasksService: tasks/* through an in-process MCPServer', () => {
  it("answers another principal's task exactly as an unknown one", async () => {
    const release: Array<() => void> = [];
    const slow = createTool({
      id: 'slow',
      description: 'Runs until the test releases it',
      inputSchema: z.object({}),
      execute: () => new Promise<string>((resolve) => release.push(() => resolve('done'))),
    });
    const server = new MCPServer({
      name: 'tasks',
      version: '1.0.0',
      tools: { slow },
      tasks: { tools: { slow: 'optional' } },
    });
    cleanups.push(() => server.close());
    const client = (subject: string) => {
      const { mcp } = inProcessClient({
        tasks: {
          server,
          options: { authInfo: { token: subject, clientId: 'c', scopes: [], extra: { subject } } },
        },
      });
      cleanups.push(() => mcp.disconnect());
      return mcp;
    };
    const alice = client('alice');
    const bob = client('bob');
    const taskId = (await alice.tasks.start('tasks', 'slow', {})).taskId as string;
    expect(await alice.tasks.get('tasks', taskId)).toMatchObject({ taskId, status: 'working' });
    const theirs = (await rejectionOf(bob.tasks.get('tasks', taskId))) as Error;
    const unknown = (await rejectionOf(bob.tasks.get('tasks', 'no-such-task'))) as Error;
    expect(theirs.message).toContain('not found');
    expect(theirs.message).toBe(unknown.message.replaceAll('no-such-task', taskId));
    expect(await rejectionOf(bob.tasks.cancel('tasks', taskId))).toBeDefined();
    expect(await alice.tasks.get('tasks', taskId)).toMatchObject({ status: 'working' });
    for (const done of release) done();
  });
});
