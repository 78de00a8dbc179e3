// Loosely typed on purpose: the adapter reads the modules by feature detection, across versions.
export declare const server: Record<string, any>;
export declare const client: Record<string, any>;
export declare const zod: Record<string, any>;
export declare const version: string;
export declare const dir: string;
