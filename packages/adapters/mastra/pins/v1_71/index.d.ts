// Loosely typed on purpose: the adapter reads these modules by feature detection, across versions.
export declare const agent: Record<string, any>;
export declare const mastra: Record<string, any>;
export declare const tools: Record<string, any>;
export declare const workflows: Record<string, any>;
export declare const storage: Record<string, any>;
export declare const libsql: Record<string, any>;
export declare const zod: Record<string, any>;
export declare const version: string;
export declare const dir: string;
