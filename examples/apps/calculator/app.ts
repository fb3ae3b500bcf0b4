/**
 * The calculator view (runs in the browser, inside the host's sandboxed iframe). It shows the
 * tool input and result the host sends, and on "=" calls the server's `calculate` tool through
 * the host (`app.callServerTool`): the view itself has no network access, only its host.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { App, PostMessageTransport } from '@modelcontextprotocol/ext-apps';

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`calculator view: #${id} is missing from app.html`);
  return found as T;
}

const num1 = element<HTMLInputElement>('num1');
const num2 = element<HTMLInputElement>('num2');
const operation = element<HTMLSelectElement>('operation');
const button = element<HTMLButtonElement>('calculate');
const output = element<HTMLOutputElement>('result');
const status = element<HTMLDivElement>('status');

function render(result: CallToolResult): void {
  const value = result.structuredContent as { expression?: string; result?: number } | undefined;
  output.classList.toggle('error', Boolean(result.isError));
  output.textContent =
    result.isError || !value
      ? result.content.map((block) => (block.type === 'text' ? block.text : '')).join(' ')
      : `${value.expression} = ${value.result}`;
}

const app = new App({ name: 'Calculator', version: '1.0.0' });

// What the model asked for, then what the server answered: shown like a user's own calculation.
app.addEventListener('toolinput', ({ arguments: args }) => {
  if (typeof args?.num1 === 'number') num1.value = String(args.num1);
  if (typeof args?.num2 === 'number') num2.value = String(args.num2);
  if (typeof args?.operation === 'string') operation.value = args.operation;
});
app.addEventListener('toolresult', render);

button.addEventListener('click', async () => {
  output.textContent = '…';
  try {
    render(
      await app.callServerTool({
        name: 'calculate',
        arguments: { num1: num1.valueAsNumber, num2: num2.valueAsNumber, operation: operation.value },
      }),
    );
  } catch (error) {
    output.classList.add('error');
    output.textContent = `calculate failed: ${error instanceof Error ? error.message : String(error)}`;
  }
});

await app.connect(new PostMessageTransport(window.parent, window.parent));
const host = app.getHostVersion();
status.textContent = `connected to ${host?.name ?? 'the host'} ${host?.version ?? ''}`.trim();
