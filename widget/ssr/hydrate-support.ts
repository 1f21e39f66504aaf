/**
 * Lit's hydration of server-rendered elements (`@lit-labs/ssr-client`): it must run before Lit's `lit-element` module
 * does, so every entry that hydrates imports this module first.
 */
import '@lit-labs/ssr-client/lit-element-hydrate-support.js';
