// Vite's `?raw` imports: a file's text as a string (used to check the docs against the worker).
declare module "*.md?raw" {
  const text: string;
  export default text;
}
declare module "*.proto?raw" {
  const text: string;
  export default text;
}
