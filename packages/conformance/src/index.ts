export { main, COMMANDS } from './main.js';
export type { Command, Io } from './commands/command.js';
