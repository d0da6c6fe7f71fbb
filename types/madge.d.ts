// The part of madge's API the import-graph test uses (server/import-graph.test.ts); madge ships no types.
declare module "madge" {
  type MadgeOptions = { baseDir?: string; fileExtensions?: string[]; tsConfig?: string; excludeRegExp?: RegExp[] };
  type MadgeResult = {
    /** Each module and the modules it imports, as paths relative to the base directory. */
    obj(): Record<string, string[]>;
    /** Every import circle, each as the modules along it. */
    circular(): string[][];
  };
  function madge(paths: string | string[], options?: MadgeOptions): Promise<MadgeResult>;
  export default madge;
}
