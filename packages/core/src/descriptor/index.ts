// What an adapter package tells the runner about its framework: the descriptor. The runner knows a framework only
// through it (test262's host contract, Jepsen's client): its name and npm package, which versions exist and which the
// published matrix runs, how an installed version loads into an `Adapter`, and how a failing cell becomes a standalone
// reproduction. Every built-in framework is described this way, and so is a third party's (`--adapter`).
export { CONTRACT_VERSION, AdapterInputError, type FrameworkDescriptor, type LoadedVersion, type Log } from './descriptor.js';
export { lastOfEachMinor, loadedPackages, notPinnedHere, stable } from './versions.js';
export { bootAgain, type AppSource, type FrameworkRepro } from './repro.js';
