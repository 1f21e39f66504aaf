import { defineElements } from './define-elements.ts';

/**
 * For the extension's pages: registers both elements. Kept under this name for the extension's imports; the
 * bundler now splits the lazy pieces (other languages, the list's body) into chunks of the extension itself.
 */
export function defineBundledElements(): Promise<void> {
  return defineElements();
}
