// @jitsi/rnnoise-wasm ships no types: its synchronous build is an Emscripten factory with the wasm inlined.
declare module '@jitsi/rnnoise-wasm/dist/rnnoise-sync.js' {
  const createRnnoiseModule: () => Promise<unknown>;
  export default createRnnoiseModule;
}
