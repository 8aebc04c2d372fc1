/** Nothing shared yet; the e2e suite adds the renderer build here. */
export default async function setup(): Promise<void> {}
