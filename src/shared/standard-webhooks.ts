/** The Standard Webhooks signer and verifier, in a module of its own: events-wire.ts imports it on first use (see lazy-module.ts). */
export { Webhook } from 'standardwebhooks';
