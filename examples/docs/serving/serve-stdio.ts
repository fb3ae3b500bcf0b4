import { server } from '../tools/publish.js';

// The first message picks the protocol revision: `server/discover` (2026-07-28) or `initialize`.
await server.startStdio();
