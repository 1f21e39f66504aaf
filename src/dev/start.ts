import { serveSandbox } from '../sandbox/serve.ts';

/** `npm start`: the embedded default. Starts the sandbox; the proxy, demo page and extension build join it. */
const sandbox = await serveSandbox();
console.log(`Sandbox API ${sandbox.apiUrl}, OAuth ${sandbox.authUrl}`);
