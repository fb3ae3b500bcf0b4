/**
 * The MIME type of a skill file by its extension, for storage that keeps none (disk, memory).
 * The types skills hold; anything else is `application/octet-stream`. (The SDK's and Mastra's own
 * tables are not exported; `mime-types` would be the library to take this from.)
 */
const BY_EXTENSION: Readonly<Record<string, string>> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  mdx: 'text/markdown',
  txt: 'text/plain',
  csv: 'text/csv',
  html: 'text/html',
  css: 'text/css',
  xml: 'application/xml',
  json: 'application/json',
  jsonl: 'application/jsonl',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  toml: 'application/toml',
  js: 'text/javascript',
  mjs: 'text/javascript',
  cjs: 'text/javascript',
  ts: 'text/typescript',
  py: 'text/x-python',
  rb: 'text/x-ruby',
  sh: 'application/x-sh',
  bash: 'application/x-sh',
  sql: 'application/sql',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  zip: 'application/zip',
};

export function mimeTypeOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  const extension = dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
  return Object.hasOwn(BY_EXTENSION, extension)
    ? (BY_EXTENSION[extension] as string)
    : 'application/octet-stream';
}
