// Loosely typed on purpose: the adapter reads these modules by feature detection, across versions.
export declare const langgraph: Record<string, any>;
export declare const sdk: Record<string, any>;
export declare const version: string;
export declare const dir: string;
