import { server } from './weather.js';

// The client starts this file as a child process and talks over stdin/stdout:
// never write to stdout here (console.log); console.error is fine.
await server.startStdio();
