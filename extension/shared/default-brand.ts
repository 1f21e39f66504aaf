/**
 * The extension's name on its pages until the page's entry sets the manifest's (`browser.runtime.getManifest().name`,
 * a partner's build carries the club's): the default build's name, `manifest.json`'s.
 */
export const defaultBrand = 'Fan Polls';
