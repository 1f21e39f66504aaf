// The Worker's uploaded modules (`edge-modules.ts`): WebAssembly compiled by the runtime, and bytes.
declare module 'fan-polls-edge-module:*.wasm' {
  const module: WebAssembly.Module;
  export default module;
}

declare module 'fan-polls-edge-module:*.woff' {
  const data: ArrayBuffer;
  export default data;
}

declare module 'fan-polls-edge-fallback-fonts' {
  const fonts: Readonly<Record<string, ArrayBuffer>>;
  export default fonts;
}
