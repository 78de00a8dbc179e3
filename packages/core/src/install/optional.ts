// A package that may or may not be installed. The pinned framework versions are workspace packages for the tests and
// are never published, so an installed suite has none of them and loads those versions on demand instead; inside the
// workspace they load without installing anything.

/**
 * Whether `error` is Node's "package `name` is not installed" and not a failure inside it: a pin that is there but
 * whose own dependencies are missing, or that throws while it loads, must still be an error.
 */
export function isMissingPackage(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    (message.includes(`'${name}'`) || message.includes(`"${name}"`))
  );
}

/** `load()`'s module, or undefined when the package `name` is not installed. Any other failure is thrown. */
export async function optionalPackage<T>(name: string, load: () => Promise<T>): Promise<T | undefined> {
  try {
    return await load();
  } catch (error) {
    if (isMissingPackage(error, name)) return undefined;
    throw error;
  }
}
