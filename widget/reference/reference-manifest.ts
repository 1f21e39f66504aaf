// The parts of custom-elements.json the reference reads: one type, shared by the reference's sections.

/** The parts of `custom-elements.json` the reference shows. */
export interface ReferenceManifest {
  modules: {
    declarations?: {
      tagName?: string;
      name: string;
      summary?: string;
      description?: string;
      attributes?: {
        name: string;
        fieldName?: string;
        type?: { text: string };
        default?: string;
        description?: string;
      }[];
      members?: {
        name: string;
        kind: string;
        attribute?: string;
        privacy?: string;
        static?: boolean;
        type?: { text: string };
        description?: string;
      }[];
      events?: { name: string; type?: { text: string }; description?: string }[];
      cssParts?: { name: string; description?: string }[];
      cssProperties?: { name: string; default?: string; description?: string }[];
    }[];
  }[];
}
