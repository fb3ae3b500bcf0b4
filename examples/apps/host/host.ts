/**
 * A minimal MCP Apps host page (runs in the browser). It connects an MCP Client to the MCPServer
 * on its own origin, finds the first tool linked to a view (`_meta.ui.resourceUri`), reads that
 * `ui://` resource and renders it through the sandbox proxy (sandbox.ts, another origin). An
 * AppBridge joins the view and the server: it forwards the view's `tools/call` to the Client.
 * Then it plays the part of a model: calls the tool once and hands input and result to the view.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  AppBridge,
  getToolUiResourceUri,
  type McpUiResourceMeta,
  PostMessageTransport,
  RESOURCE_MIME_TYPE,
} from '@modelcontextprotocol/ext-apps/app-bridge';

const HOST_INFO = { name: 'mastra-mcp example host', version: '1.0.0' };
/** The MCP Apps extension's capability key (SEP-1865), with the one MIME type this host renders. */
const UI_EXTENSION = 'io.modelcontextprotocol/ui';
/** The call a model would make; the host shows its input and result in the view. */
const FIRST_CALL = { num1: 6, num2: 7, operation: 'multiply' };

function element(id: string): HTMLElement {
  const found = document.getElementById(id);
  if (!found) throw new Error(`host page: #${id} is missing from index.html`);
  return found;
}

const status = element('status');

async function main(): Promise<void> {
  const sandboxUrl = document.querySelector<HTMLMetaElement>('meta[name="mcp-apps-sandbox"]')?.content;
  if (!sandboxUrl) throw new Error('host page: no <meta name="mcp-apps-sandbox"> with the sandbox proxy URL');

  const client = new Client(HOST_INFO, {
    versionNegotiation: { mode: 'auto' },
    capabilities: { extensions: { [UI_EXTENSION]: { mimeTypes: [RESOURCE_MIME_TYPE] } } },
  });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', location.href)));
  const server = client.getServerVersion();
  const { tools } = await client.listTools();
  const tool = tools.find((candidate) => getToolUiResourceUri(candidate));
  const uri = tool && getToolUiResourceUri(tool);
  element('server').textContent =
    `${server?.name} ${server?.version} (protocol ${client.getNegotiatedProtocolVersion()}): ` +
    tools.map((t) => (t === tool ? `${t.name} → ${uri}` : t.name)).join(', ');
  if (!tool || !uri) throw new Error('no tool of this server has _meta.ui.resourceUri');

  const [content] = (await client.readResource({ uri })).contents;
  if (!content || !('text' in content) || content.mimeType !== RESOURCE_MIME_TYPE) {
    throw new Error(`${uri} is not an MCP App (expected text with mimeType ${RESOURCE_MIME_TYPE})`);
  }
  const ui = (content._meta?.ui ?? {}) as McpUiResourceMeta;

  // The outer frame is the proxy on its own origin; the view gets an opaque origin inside it.
  const frame = document.createElement('iframe');
  frame.id = 'app-frame';
  frame.title = `${tool.name} app`;
  frame.setAttribute('sandbox', 'allow-scripts allow-same-origin');
  frame.src = `${sandboxUrl}?host=${encodeURIComponent(location.origin)}`;
  if (!ui.prefersBorder) frame.style.border = '0';
  element('app').append(frame);
  const proxy = frame.contentWindow;
  if (!proxy) throw new Error('host page: the sandbox frame has no window');

  const bridge = new AppBridge(
    client,
    HOST_INFO,
    {
      serverTools: {},
      serverResources: {},
      logging: {},
      sandbox: { csp: ui.csp, permissions: ui.permissions },
    },
    { hostContext: { theme: 'light', displayMode: 'inline', platform: 'web' } },
  );
  bridge.addEventListener('sandboxready', () => {
    void bridge.sendSandboxResourceReady({
      html: content.text,
      sandbox: 'allow-scripts',
      csp: ui.csp,
      permissions: ui.permissions,
    });
  });
  bridge.addEventListener('sizechange', ({ height }) => {
    if (height) frame.style.height = `${height}px`;
  });
  bridge.addEventListener('initialized', async () => {
    const app = bridge.getAppVersion();
    status.textContent = `view ${app?.name} ${app?.version} initialized`;
    element('call').textContent = `${tool.name} ${JSON.stringify(FIRST_CALL)}`;
    await bridge.sendToolInput({ arguments: FIRST_CALL });
    const result = await client.callTool({ name: tool.name, arguments: FIRST_CALL });
    await bridge.sendToolResult(result);
  });
  await bridge.connect(new PostMessageTransport(proxy, proxy));
}

main().catch((error: unknown) => {
  status.classList.add('error');
  status.textContent = `host error: ${error instanceof Error ? error.message : String(error)}`;
});
