import { server } from './server.js'; // in your project: './server.ts' (Deno wants the file's own name)

const port = Number(Deno.env.get('PORT') ?? 3000);
Deno.serve({ port, hostname: '127.0.0.1' }, server.fetch);
