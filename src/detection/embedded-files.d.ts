/** Binary model files are imported `with { type: "file" }`: the import is their (embedded) path. */
declare module "*.bin" {
  const path: string;
  export default path;
}
