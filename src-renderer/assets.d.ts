/** Files the renderer imports as addresses (Vite's `?url` suffix): the bundle serves them, the import gives the URL. */
declare module '*.svg?url' {
  const url: string;
  export default url;
}
