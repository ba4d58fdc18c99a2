// Files imported `with { type: "file" }` resolve to a path Bun.file can read, inside the compiled binary too.
declare module "*/standalone.js" {
  const path: string;
  export default path;
}
