// Build native addons (better-sqlite3) against the Node headers installed with Node itself, when they are there,
// instead of downloading them: the machines this suite runs on reach only the package registry.
const { readFileSync } = require('node:fs');
const { dirname, join } = require('node:path');

/** The headers' version, from node_version.h, or undefined when there are none. */
function headerVersion(prefix) {
  try {
    const text = readFileSync(join(prefix, 'include', 'node', 'node_version.h'), 'utf8');
    const part = (name) => (new RegExp(`#define NODE_${name}_VERSION (\\d+)`).exec(text) || [])[1];
    return `v${part('MAJOR')}.${part('MINOR')}.${part('PATCH')}`;
  } catch {
    return undefined;
  }
}

function localNodeDir() {
  const prefixes = [join(dirname(process.execPath), '..'), '/usr', '/usr/local'];
  return prefixes.find((prefix) => headerVersion(prefix) === process.version);
}

module.exports = {
  hooks: {
    updateConfig(config) {
      const nodedir = process.env.npm_config_nodedir || localNodeDir();
      if (!nodedir) return config;
      return { ...config, extraEnv: { ...config.extraEnv, npm_config_nodedir: nodedir } };
    },
  },
};
