/**
 * The sandbox proxy of the MCP Apps host (SEP-1865's double iframe). This page is served from a
 * different origin than the host page and framed by it with `allow-scripts allow-same-origin`.
 * It tells the host it is ready, receives the view's HTML in `ui/notifications/sandbox-resource-ready`,
 * loads it into an inner iframe (`sandbox="allow-scripts"`: an opaque origin that can reach
 * neither this page nor the host) under a CSP built from the resource's `_meta.ui.csp`, and then
 * relays every other JSON-RPC message between the host and the view unchanged.
 */
import {
  buildAllowAttribute,
  type McpUiResourceCsp,
  type McpUiSandboxResourceReadyNotification,
  SANDBOX_PROXY_READY_METHOD,
  SANDBOX_RESOURCE_READY_METHOD,
} from '@modelcontextprotocol/ext-apps/app-bridge';

/** The host page's origin: the only parent this proxy talks to (the host puts it in the URL). */
const hostOrigin = new URL(location.href).searchParams.get('host');
if (!hostOrigin) throw new Error('sandbox proxy: open it as sandbox.html?host=<host page origin>');

let view: HTMLIFrameElement | undefined;

/** An origin like `https://*.example.com`; anything else could smuggle directives into the policy. */
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^\s;,'"<>]+$/i;

function sources(domains: string[] | undefined, fallback: string): string {
  const origins = domains?.filter((domain) => ORIGIN.test(domain)) ?? [];
  return origins.length ? origins.join(' ') : fallback;
}

/** The view's policy: nothing but inline code and the domains the resource declared. */
function contentSecurityPolicy(csp: McpUiResourceCsp | undefined): string {
  const resources = sources(csp?.resourceDomains, '');
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${resources}`,
    `style-src 'unsafe-inline' ${resources}`,
    `img-src data: ${resources}`,
    `font-src data: ${resources}`,
    `media-src data: ${resources}`,
    `connect-src ${sources(csp?.connectDomains, "'none'")}`,
    `frame-src ${sources(csp?.frameDomains, "'none'")}`,
    `base-uri ${sources(csp?.baseUriDomains, "'none'")}`,
    "form-action 'none'",
  ]
    .map((directive) => directive.trim())
    .join('; ');
}

/** The view's HTML with its CSP as the first element of `<head>`, before any script can run. */
function withPolicy(html: string, csp: McpUiResourceCsp | undefined): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(csp)}">`;
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (head) => `${head}${meta}`) : meta + html;
}

function load({ html, sandbox, csp, permissions }: McpUiSandboxResourceReadyNotification['params']): void {
  view?.remove();
  view = document.createElement('iframe');
  // Never same-origin with this proxy, whatever the host asks for.
  view.setAttribute('sandbox', (sandbox ?? 'allow-scripts').replace(/\ballow-same-origin\b/g, '').trim());
  const allow = buildAllowAttribute(permissions);
  if (allow) view.setAttribute('allow', allow);
  view.srcdoc = withPolicy(html, csp);
  document.body.append(view);
}

window.addEventListener('message', (event) => {
  if (event.source === window.parent && event.origin === hostOrigin) {
    const message = event.data as { method?: string; params?: unknown };
    if (message?.method === SANDBOX_RESOURCE_READY_METHOD) {
      load(message.params as McpUiSandboxResourceReadyNotification['params']);
    } else {
      // The view's origin is opaque, so '*' is the only target that reaches it.
      view?.contentWindow?.postMessage(event.data, '*');
    }
  } else if (view && event.source === view.contentWindow) {
    window.parent.postMessage(event.data, hostOrigin);
  }
});

window.parent.postMessage({ jsonrpc: '2.0', method: SANDBOX_PROXY_READY_METHOD, params: {} }, hostOrigin);
