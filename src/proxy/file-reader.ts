/** Reads one built file by its path under a served folder (the widget's, the configurator's); undefined when none. */
export type FileReader = (relativePath: string) => Promise<Uint8Array | undefined>;
