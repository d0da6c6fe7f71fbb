export declare const CHROMIUM_FLAGS: readonly string[];
export declare function chromiumLaunchOptions(fallbackPath: string): { executablePath: string; args: string[] };
